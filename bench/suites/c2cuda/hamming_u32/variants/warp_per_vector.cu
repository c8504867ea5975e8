// strategy: warp primitives - one warp per database vector, lanes read consecutive words (coalesced), the query cached in shared memory, a __shfl_down_sync sum of the popcounts
#include <cuda_runtime.h>

#define QMAX 4096

__global__ void ham_warp(const unsigned int *a, const unsigned int *q, int *out, int n, int words) {
  __shared__ unsigned int qs[QMAX];
  bool cached = words <= QMAX;
  if (cached)
    for (int w = threadIdx.x; w < words; w += blockDim.x) qs[w] = q[w];
  __syncthreads();
  int lane = threadIdx.x & 31;
  long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (i >= n) return;  // warp-uniform, after the barrier
  const unsigned int *v = a + i * words;
  int d = 0;
  for (int w = lane; w < words; w += 32) d += __popc(v[w] ^ (cached ? qs[w] : q[w]));
  for (int off = 16; off > 0; off >>= 1) d += __shfl_down_sync(0xffffffffu, d, off);
  if (lane == 0) out[i] = d;
}

extern "C" void hamming_u32(const unsigned int *a, const unsigned int *q, int *out, int n, int words) {
  if (n <= 0) return;
  long long threads = (long long)n * 32;
  ham_warp<<<(unsigned)((threads + 255) / 256), 256>>>(a, q, out, n, words);
}
