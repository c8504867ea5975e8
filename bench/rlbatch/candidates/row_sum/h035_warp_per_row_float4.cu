// strategy: vectorized loads + warp primitives - one warp per row reading float4 (when rows are 16-byte aligned), 4 independent accumulators, shuffle reduction
#include <cuda_runtime.h>
#include <stdint.h>

#define WARPS_PER_BLOCK 4

__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
row_sum_warp_vec4(const float *__restrict__ a, float *__restrict__ out, int rows, int cols, int use_vec) {
  int lane = threadIdx.x & 31;
  int r = blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
  if (r >= rows) return;  // warp-uniform
  const float *row = a + (long long)r * cols;
  float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
  int done = 0;
  if (use_vec) {
    // Every row starts 16-byte aligned here (checked on the host).
    const float4 *row4 = (const float4 *)row;
    int c4 = cols / 4;
    for (int j = lane; j < c4; j += 32) {
      float4 v = row4[j];
      acc0 += v.x;
      acc1 += v.y;
      acc2 += v.z;
      acc3 += v.w;
    }
    done = 4 * c4;
  }
  for (int j = done + lane; j < cols; j += 32) acc0 += row[j];
  float acc = (acc0 + acc1) + (acc2 + acc3);
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) out[r] = acc;
}

static void row_sum_rlbatch_impl(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  int use_vec = (cols % 4 == 0) && ((uintptr_t)a % 16 == 0);
  int blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
  row_sum_warp_vec4<<<blocks, WARPS_PER_BLOCK * 32>>>(a, out, rows, cols, use_vec);
}

extern "C" void row_sum(const float *a, float *out, int rows, int cols) {
    row_sum_rlbatch_impl(a, out, rows, cols);
}

// rlbatch: copy 35
__device__ int rlbatch_tag_35 = 35;
