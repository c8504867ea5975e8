// strategy: register blocking / ILP - grid-stride loop sized to the SM count, 4 independent elements per iteration, branchless select
#include <cuda_runtime.h>

__device__ __forceinline__ float clamp_sel(float v, float lo, float hi, float scale) {
  v = v < lo ? lo : (v > hi ? hi : v);
  return scale * v;
}

__global__ void clamp_scale_ilp4(const float *__restrict__ x, float *__restrict__ y, float lo, float hi,
                                 float scale, int n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    float v0 = x[i], v1 = x[i + stride], v2 = x[i + 2 * stride], v3 = x[i + 3 * stride];
    y[i] = clamp_sel(v0, lo, hi, scale);
    y[i + stride] = clamp_sel(v1, lo, hi, scale);
    y[i + 2 * stride] = clamp_sel(v2, lo, hi, scale);
    y[i + 3 * stride] = clamp_sel(v3, lo, hi, scale);
  }
  for (; i < n; i += stride) y[i] = clamp_sel(x[i], lo, hi, scale);
}

extern "C" void clamp_scale(const float *x, float *y, float lo, float hi, float scale, int n) {
  if (n <= 0) return;
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  const int threads = 256;
  long long need = ((long long)n + threads - 1) / threads;
  long long blocks = (long long)sms * 8;
  if (blocks > need) blocks = need;
  clamp_scale_ilp4<<<(int)blocks, threads>>>(x, y, lo, hi, scale, n);
}

// rlbatch: copy 54
__device__ int rlbatch_tag_54 = 54;
