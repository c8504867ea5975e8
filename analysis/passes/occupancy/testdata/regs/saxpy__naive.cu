// strategy: naive - one thread per element, 256 threads per block
#include <cuda_runtime.h>

__global__ void saxpy_kernel(const float *x, float *y, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(const float *x, float *y, float alpha, int n) {
  if (n <= 0) return;
  const int threads = 256;
  saxpy_kernel<<<(n + threads - 1) / threads, threads>>>(x, y, alpha, n);
}
