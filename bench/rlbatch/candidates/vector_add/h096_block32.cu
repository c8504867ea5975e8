// strategy: block size - 32 threads per block (one warp), limited by the per-SM block cap to half occupancy
#include <cuda_runtime.h>

__global__ void vector_add_kernel(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
  if (n <= 0) return;
  const int threads = 32;
  int blocks = (n + threads - 1) / threads;
  vector_add_kernel<<<blocks, threads>>>(a, b, c, n);
}

// rlbatch: copy 96
__device__ int rlbatch_tag_96 = 96;
