// strategy: register blocking / ILP - grid-stride loop, 4 independent elements per thread per iteration, tanhf
#include <cuda_runtime.h>

__device__ __forceinline__ float gelu_tanh(float v) {
  float u = 0.7978845608028654f * (v + 0.044715f * v * v * v);
  return 0.5f * v * (1.0f + tanhf(u));
}

__global__ void gelu_ilp4(const float *__restrict__ x, float *__restrict__ y, int n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    float v0 = x[i], v1 = x[i + stride], v2 = x[i + 2 * stride], v3 = x[i + 3 * stride];
    y[i] = gelu_tanh(v0);
    y[i + stride] = gelu_tanh(v1);
    y[i + 2 * stride] = gelu_tanh(v2);
    y[i + 3 * stride] = gelu_tanh(v3);
  }
  for (; i < n; i += stride) y[i] = gelu_tanh(x[i]);
}

static void gelu_rlbatch_impl(const float *x, float *y, int n) {
  if (n <= 0) return;
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  const int threads = 256;
  long long need = ((long long)n + threads - 1) / threads;
  long long blocks = (long long)sms * 8;
  if (blocks > need) blocks = need;
  gelu_ilp4<<<(int)blocks, threads>>>(x, y, n);
}

extern "C" void gelu(const float *x, float *y, int n) {
    gelu_rlbatch_impl(x, y, n);
}

// rlbatch: copy 65
__device__ int rlbatch_tag_65 = 65;
