// strategy: deliberately poor (uncoalesced) - one thread per database vector walks its words, so a warp's lanes read addresses words*4 bytes apart
#include <cuda_runtime.h>

__global__ void ham_thread(const unsigned int *a, const unsigned int *q, int *out, int n, int words) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned int *v = a + (long long)i * words;
  int d = 0;
  for (int w = 0; w < words; w++) d += __popc(v[w] ^ q[w]);
  out[i] = d;
}

extern "C" void hamming_u32(const unsigned int *a, const unsigned int *q, int *out, int n, int words) {
  if (n <= 0) return;
  ham_thread<<<(n + 255) / 256, 256>>>(a, q, out, n, words);
}
