// strategy: vectorized loads and stores - each thread loads 4 pixels as one 16-byte uint4 and writes one uchar4 to each plane (when n is a multiple of 4, so plane starts stay aligned), BLOCK threads per block
// sweep: BLOCK = 64, 128, 256, 512, 1024
#include <cuda_runtime.h>

__global__ void planar_quad(const unsigned char *in, unsigned char *out, int n) {
  long long q = (long long)blockIdx.x * BLOCK + threadIdx.x;
  long long i0 = 4 * q;
  if (i0 >= n) return;
  if ((n & 3) == 0) {
    uint4 v = reinterpret_cast<const uint4 *>(in)[q];
    unsigned int w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int c = 0; c < 4; c++) {
      uchar4 o = make_uchar4((w[0] >> (8 * c)) & 0xFF, (w[1] >> (8 * c)) & 0xFF, (w[2] >> (8 * c)) & 0xFF,
                             (w[3] >> (8 * c)) & 0xFF);
      reinterpret_cast<uchar4 *>(out + (long long)c * n)[q] = o;
    }
  } else {
    for (long long i = i0; i < i0 + 4 && i < n; i++)
#pragma unroll
      for (int c = 0; c < 4; c++) out[(long long)c * n + i] = in[4 * i + c];
  }
}

extern "C" void rgba_to_planar_u8(const unsigned char *in, unsigned char *out, int n) {
  if (n <= 0) return;
  long long quads = ((long long)n + 3) / 4;
  planar_quad<<<(unsigned)((quads + BLOCK - 1) / BLOCK), BLOCK>>>(in, out, n);
}
