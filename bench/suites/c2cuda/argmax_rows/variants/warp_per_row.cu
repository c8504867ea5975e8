// strategy: warp primitives - one warp per row, lanes stride the row (coalesced), then a __shfl_down_sync reduction of (value, index) pairs that keeps the lower index on ties; 8 rows per block
#include <cuda_runtime.h>

__global__ void argmax_warp(const float *a, int *out, int rows, int cols) {
  int lane = threadIdx.x & 31;
  int r = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (r >= rows) return;  // warp-uniform
  const float *row = a + (long long)r * cols;
  float bv = -INFINITY;
  int bi = 0x7fffffff;
  for (int j = lane; j < cols; j += 32) {
    float v = row[j];
    if (v > bv) bv = v, bi = j;  // strictly greater: a lane keeps its first maximum
  }
  for (int off = 16; off > 0; off >>= 1) {
    float ov = __shfl_down_sync(0xffffffffu, bv, off);
    int oi = __shfl_down_sync(0xffffffffu, bi, off);
    if (ov > bv || (ov == bv && oi < bi)) bv = ov, bi = oi;
  }
  if (lane == 0) out[r] = bi;
}

extern "C" void argmax_rows(const float *a, int *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  argmax_warp<<<(rows + 7) / 8, 256>>>(a, out, rows, cols);
}
