// strategy: sub-warp groups - LANES consecutive lanes share one database vector (coalesced within the group), a __shfl_down_sync reduction of width LANES; BLOCK threads per block
// sweep: LANES = 2, 4, 8, 16, 32
// sweep: BLOCK = 128, 256
#include <cuda_runtime.h>

__global__ void ham_group(const unsigned int *a, const unsigned int *q, int *out, int n, int words) {
  long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
  long long i = t / LANES;
  int g = (int)(t % LANES);
  int d = 0;
  if (i < n) {
    const unsigned int *v = a + i * words;
    for (int w = g; w < words; w += LANES) d += __popc(v[w] ^ q[w]);
  }
#pragma unroll
  for (int off = LANES / 2; off > 0; off >>= 1) d += __shfl_down_sync(0xffffffffu, d, off, LANES);
  if (i < n && g == 0) out[i] = d;
}

extern "C" void hamming_u32(const unsigned int *a, const unsigned int *q, int *out, int n, int words) {
  if (n <= 0) return;
  long long threads = (long long)n * LANES;
  ham_group<<<(unsigned)((threads + BLOCK - 1) / BLOCK), BLOCK>>>(a, q, out, n, words);
}
