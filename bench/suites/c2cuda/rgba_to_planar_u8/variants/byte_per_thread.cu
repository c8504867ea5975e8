// strategy: naive - one thread per output byte: writes are coalesced but each warp reads 32 bytes spread over 128 (a quarter of every sector fetched is used)
#include <cuda_runtime.h>

__global__ void planar_byte(const unsigned char *in, unsigned char *out, int n) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 4LL * n) return;
  int c = (int)(t / n);
  long long i = t % n;
  out[t] = in[4 * i + c];
}

extern "C" void rgba_to_planar_u8(const unsigned char *in, unsigned char *out, int n) {
  long long total = 4LL * n;
  if (total <= 0) return;
  planar_byte<<<(unsigned)((total + 255) / 256), 256>>>(in, out, n);
}
