#include <cuda_runtime.h>

template <typename T>
__global__ void fill(T *p, T value, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = value;
}

template <typename T>
__global__ void iota(T *p, T start, T step, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = start + static_cast<T>(i) * step;
}

int main() {
  const size_t n = 1 << 20;
  int *d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  fill<int><<<256, 256>>>(d, 7, n);
  iota<<<256, 256>>>(d, 0, 2, n);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
