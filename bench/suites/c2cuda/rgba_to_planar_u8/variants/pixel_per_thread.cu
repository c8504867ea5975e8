// strategy: vectorized loads - one thread per pixel loads its 4 bytes as one uchar4 and stores one byte into each plane (four 1-byte coalesced stores)
#include <cuda_runtime.h>

__global__ void planar_pixel(const uchar4 *in, unsigned char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uchar4 p = in[i];
  out[i] = p.x;
  out[(long long)n + i] = p.y;
  out[2LL * n + i] = p.z;
  out[3LL * n + i] = p.w;
}

extern "C" void rgba_to_planar_u8(const unsigned char *in, unsigned char *out, int n) {
  if (n <= 0) return;
  planar_pixel<<<(n + 255) / 256, 256>>>(reinterpret_cast<const uchar4 *>(in), out, n);
}
