// strategy: deliberately poor (atomics-heavy) - zero the output, then every element atomicAdd-s itself into its column's sum
#include <cuda_runtime.h>

__global__ void col_sum_atomic(const float *a, float *out, int rows, int cols) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long total = (long long)rows * cols;
  if (i < total) atomicAdd(&out[i % cols], a[i]);
}

extern "C" void col_sum(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  cudaMemsetAsync(out, 0, (size_t)cols * sizeof(float), 0);
  long long total = (long long)rows * cols;
  const int threads = 256;
  col_sum_atomic<<<(int)((total + threads - 1) / threads), threads>>>(a, out, rows, cols);
}
