// strategy: warp primitives - one warp per row, one byte per lane per step (coalesced, but only 32 bytes per warp load), __shfl_down_sync reduction
#include <cuda_runtime.h>

__global__ void mv8_warp(const unsigned char *a, const unsigned char *x, unsigned int *y, int rows, int cols) {
  int lane = threadIdx.x & 31;
  long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (r >= rows) return;  // warp-uniform
  const unsigned char *row = a + r * cols;
  unsigned int acc = 0;
  for (int j = lane; j < cols; j += 32) acc += (unsigned int)row[j] * x[j];
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) y[r] = acc;
}

extern "C" void matvec_u8(const unsigned char *a, const unsigned char *x, unsigned int *y, int rows, int cols) {
  if (rows <= 0) return;
  long long threads = (long long)rows * 32;
  mv8_warp<<<(unsigned)((threads + 255) / 256), 256>>>(a, x, y, rows, cols);
}
