// strategy: vectorized loads - one thread per vector reads it 16 bytes at a time (uint4, when words is a multiple of 4 so rows stay aligned); still strided across the warp but 4x fewer load instructions
#include <cuda_runtime.h>

__global__ void ham_vec(const unsigned int *a, const unsigned int *q, int *out, int n, int words) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int d = 0;
  if ((words & 3) == 0) {
    const uint4 *v = reinterpret_cast<const uint4 *>(a + (long long)i * words);
    const uint4 *q4 = reinterpret_cast<const uint4 *>(q);
    for (int w = 0; w < words / 4; w++) {
      uint4 x = v[w], y = q4[w];
      d += __popc(x.x ^ y.x) + __popc(x.y ^ y.y) + __popc(x.z ^ y.z) + __popc(x.w ^ y.w);
    }
  } else {
    const unsigned int *v = a + (long long)i * words;
    for (int w = 0; w < words; w++) d += __popc(v[w] ^ q[w]);
  }
  out[i] = d;
}

extern "C" void hamming_u32(const unsigned int *a, const unsigned int *q, int *out, int n, int words) {
  if (n <= 0) return;
  ham_vec<<<(n + 127) / 128, 128>>>(a, q, out, n, words);
}
