// strategy: naive - one thread per output pixel and channel, every tap and weight read from global memory
#include <cuda_runtime.h>

__global__ void conv_naive(const float *in, const float *w, float *out, int C, int K, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
  if (x >= W || y >= H) return;
  float acc = 0.0f;
  for (int c = 0; c < C; c++)
    for (int dy = 0; dy < 3; dy++) {
      int yy = y + dy - 1;
      if (yy < 0 || yy >= H) continue;
      for (int dx = 0; dx < 3; dx++) {
        int xx = x + dx - 1;
        if (xx < 0 || xx >= W) continue;
        acc += w[((k * C + c) * 3 + dy) * 3 + dx] * in[((long long)c * H + yy) * W + xx];
      }
    }
  out[((long long)k * H + y) * W + x] = acc;
}

extern "C" void conv2d_nchw(const float *in, const float *w, float *out, int C, int K, int H, int W) {
  if (K <= 0 || H <= 0 || W <= 0) return;
  dim3 block(32, 8), grid((W + 31) / 32, (H + 7) / 8, K);
  conv_naive<<<grid, block>>>(in, w, out, C, K, H, W);
}
