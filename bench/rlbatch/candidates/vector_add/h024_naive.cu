// strategy: naive - one thread per element, 256 threads per block
#include <cuda_runtime.h>

__global__ void vector_add_kernel(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
  if (n <= 0) return;
  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  vector_add_kernel<<<blocks, threads>>>(a, b, c, n);
}

// rlbatch: copy 24
__device__ int rlbatch_tag_24 = 24;
