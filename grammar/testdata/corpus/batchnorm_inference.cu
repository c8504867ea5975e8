#include <cuda_runtime.h>

// Inference-time batch norm folded into scale/shift per channel, NHWC layout
// so that channels are contiguous.
__global__ void fold_bn(const float *gamma, const float *beta, const float *mean, const float *var, float eps,
                        float *scale, float *shift, int C) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < C) {
    float s = gamma[c] * rsqrtf(var[c] + eps);
    scale[c] = s;
    shift[c] = beta[c] - mean[c] * s;
  }
}

__global__ void apply_bn_nhwc(const float *__restrict__ x, float *__restrict__ y, const float *__restrict__ scale,
                              const float *__restrict__ shift, long total, int C) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < total; i += (long)gridDim.x * blockDim.x) {
    int c = i % C;
    y[i] = fmaf(x[i], scale[c], shift[c]);
  }
}

void batchnorm(const float *x, float *y, const float *g, const float *b, const float *m, const float *v,
               float *scale, float *shift, int N, int H, int W, int C, cudaStream_t s) {
  fold_bn<<<(C + 127) / 128, 128, 0, s>>>(g, b, m, v, 1e-5f, scale, shift, C);
  apply_bn_nhwc<<<1024, 256, 0, s>>>(x, y, scale, shift, (long)N * H * W * C, C);
}
