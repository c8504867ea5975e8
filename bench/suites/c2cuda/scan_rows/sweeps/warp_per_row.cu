// strategy: warp primitives - one warp per row, 32-element chunks scanned with __shfl_up_sync and a carry broadcast from lane 31, WARPS_PER_BLOCK rows per block
// sweep: WARPS_PER_BLOCK = 1, 2, 4, 8, 16, 32
#include <cuda_runtime.h>

__global__ void scan_warp(const float *a, float *out, int rows, int cols) {
  int lane = threadIdx.x & 31;
  int r = blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
  if (r >= rows) return;  // warp-uniform
  const float *in = a + (long long)r * cols;
  float *o = out + (long long)r * cols;
  float carry = 0.0f;
  for (int j0 = 0; j0 < cols; j0 += 32) {
    int j = j0 + lane;
    float s = (j < cols) ? in[j] : 0.0f;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      float n = __shfl_up_sync(0xffffffffu, s, off);
      if (lane >= off) s += n;
    }
    if (j < cols) o[j] = carry + s;
    carry += __shfl_sync(0xffffffffu, s, 31);
  }
}

extern "C" void scan_rows(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  scan_warp<<<(rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK, WARPS_PER_BLOCK * 32>>>(a, out, rows, cols);
}
