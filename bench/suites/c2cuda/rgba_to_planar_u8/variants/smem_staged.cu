// strategy: shared-memory staging - a block copies 1024 pixels (4 KiB) into shared memory with 16-byte loads, then writes each plane's 1024 bytes with 4-byte stores read back from shared memory
#include <cuda_runtime.h>

#define PIX 1024

__global__ void planar_smem(const unsigned char *in, unsigned char *out, int n) {
  __shared__ __align__(16) unsigned char s[4 * PIX];
  long long p0 = (long long)blockIdx.x * PIX;
  int cnt = (int)min((long long)PIX, n - p0);
  const unsigned char *src = in + 4 * p0;
  if (cnt == PIX) {
    const uint4 *src16 = reinterpret_cast<const uint4 *>(src);
    for (int k = threadIdx.x; k < PIX / 4; k += blockDim.x) reinterpret_cast<uint4 *>(s)[k] = src16[k];
  } else {
    for (int k = threadIdx.x; k < 4 * cnt; k += blockDim.x) s[k] = src[k];
  }
  __syncthreads();
  bool aligned = (n & 3) == 0 && cnt == PIX;
  for (int c = 0; c < 4; c++) {
    unsigned char *dst = out + (long long)c * n + p0;
    if (aligned) {
      for (int q = threadIdx.x; q < PIX / 4; q += blockDim.x) {
        uchar4 v = make_uchar4(s[4 * (4 * q) + c], s[4 * (4 * q + 1) + c], s[4 * (4 * q + 2) + c], s[4 * (4 * q + 3) + c]);
        reinterpret_cast<uchar4 *>(dst)[q] = v;
      }
    } else {
      for (int i = threadIdx.x; i < cnt; i += blockDim.x) dst[i] = s[4 * i + c];
    }
  }
}

extern "C" void rgba_to_planar_u8(const unsigned char *in, unsigned char *out, int n) {
  if (n <= 0) return;
  planar_smem<<<(n + PIX - 1) / PIX, 256>>>(in, out, n);
}
