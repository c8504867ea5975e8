// strategy: deliberately poor (uncoalesced) - each thread owns a contiguous chunk of 64 elements, so a warp's 32 lanes touch 32 different cache lines per access
#include <cuda_runtime.h>

#define CHUNK 64

__global__ void vector_add_chunked(const float *a, const float *b, float *c, int n) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long start = t * CHUNK;
  long long end = start + CHUNK < n ? start + CHUNK : n;
  for (long long i = start; i < end; i++) c[i] = a[i] + b[i];
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
  if (n <= 0) return;
  const int threads = 256;
  long long nthreads = ((long long)n + CHUNK - 1) / CHUNK;
  int blocks = (int)((nthreads + threads - 1) / threads);
  vector_add_chunked<<<blocks, threads>>>(a, b, c, n);
}

// rlbatch: copy 80
__device__ int rlbatch_tag_80 = 80;
