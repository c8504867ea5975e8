// strategy: deliberately poor (uncoalesced) - one warp per column, lanes stride down the rows so every lane reads a different row (cols*4 bytes apart), shuffle reduction
#include <cuda_runtime.h>

#define WARPS_PER_BLOCK 8

__global__ void col_sum_warp(const float *a, float *out, int rows, int cols) {
  int lane = threadIdx.x & 31;
  int c = blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
  if (c >= cols) return;  // warp-uniform
  float acc = 0.0f;
  for (int r = lane; r < rows; r += 32) acc += a[(long long)r * cols + c];
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) out[c] = acc;
}

extern "C" void col_sum(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  col_sum_warp<<<(cols + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK, WARPS_PER_BLOCK * 32>>>(a, out, rows, cols);
}
