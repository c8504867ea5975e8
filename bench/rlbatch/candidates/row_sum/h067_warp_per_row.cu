// strategy: warp primitives - one warp per row, coalesced strided reads, __shfl_down_sync reduction, 8 rows per 256-thread block
#include <cuda_runtime.h>

#define WARPS_PER_BLOCK 8

__global__ void row_sum_warp(const float *__restrict__ a, float *__restrict__ out, int rows, int cols) {
  int lane = threadIdx.x & 31;
  int r = blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
  if (r >= rows) return;  // whole warp leaves together: r is warp-uniform
  const float *row = a + (long long)r * cols;
  float acc = 0.0f;
  for (int j = lane; j < cols; j += 32) acc += row[j];
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) out[r] = acc;
}

static void row_sum_rlbatch_impl(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  int blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
  row_sum_warp<<<blocks, WARPS_PER_BLOCK * 32>>>(a, out, rows, cols);
}

extern "C" void row_sum(const float *a, float *out, int rows, int cols) {
    row_sum_rlbatch_impl(a, out, rows, cols);
}

// rlbatch: copy 67
__device__ int rlbatch_tag_67 = 67;
