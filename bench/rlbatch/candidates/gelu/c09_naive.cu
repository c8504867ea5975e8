// strategy: naive - one thread per element, tanhf, 256 threads per block
#include <cuda_runtime.h>

__global__ viod gelu_kernel(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float u = 0.7978845608028654f * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(u));
  }
}

extern "C" void gelu(const float *x, float *y, int n) {
  if (n <= 0) return;
  const int threads = 256;
  gelu_kernel<<<(n + threads - 1) / threads, threads>>>(x, y, n);
}
