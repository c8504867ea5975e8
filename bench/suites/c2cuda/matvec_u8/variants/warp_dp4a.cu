// strategy: packed integer arithmetic - one warp per row, each lane loads 16 bytes (uint4) and multiplies-accumulates 4 bytes at a time with __dp4a (when cols is a multiple of 16, so rows stay aligned; bytes otherwise)
#include <cuda_runtime.h>

__global__ void mv8_dp4a(const unsigned char *a, const unsigned char *x, unsigned int *y, int rows, int cols) {
  int lane = threadIdx.x & 31;
  long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (r >= rows) return;  // warp-uniform
  const unsigned char *row = a + r * cols;
  unsigned int acc = 0;
  if ((cols & 15) == 0) {
    const uint4 *row16 = reinterpret_cast<const uint4 *>(row);
    const uint4 *x16 = reinterpret_cast<const uint4 *>(x);
    for (int k = lane; k < cols / 16; k += 32) {
      uint4 av = row16[k], xv = x16[k];
      acc = __dp4a(av.x, xv.x, acc);
      acc = __dp4a(av.y, xv.y, acc);
      acc = __dp4a(av.z, xv.z, acc);
      acc = __dp4a(av.w, xv.w, acc);
    }
  } else {
    for (int j = lane; j < cols; j += 32) acc += (unsigned int)row[j] * x[j];
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) y[r] = acc;
}

extern "C" void matvec_u8(const unsigned char *a, const unsigned char *x, unsigned int *y, int rows, int cols) {
  if (rows <= 0) return;
  long long threads = (long long)rows * 32;
  mv8_dp4a<<<(unsigned)((threads + 255) / 256), 256>>>(a, x, y, rows, cols);
}
