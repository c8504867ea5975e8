// strategy: deliberately poor (grid smaller than the SM count) - 8 blocks of 1024 threads grid-stride over all n, leaving most SMs idle
#include <cuda_runtime.h>

__global__ void saxpy_tiny_grid(const float *x, float *y, float alpha, int n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(const float *x, float *y, float alpha, int n) {
  if (n <= 0) return;
  saxpy_tiny_grid<<<8, 1024>>>(x, y, alpha, n);
}
