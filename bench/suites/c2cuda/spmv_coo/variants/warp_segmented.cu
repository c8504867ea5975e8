// strategy: warp primitives - one entry per lane, a segmented suffix sum over equal row indices with __shfl_down_sync (rows are sorted, so equal rows are contiguous), one atomicAdd per row run per warp instead of per entry
#include <cuda_runtime.h>

__global__ void coo_segmented(const int *row_idx, const int *col_idx, const float *val, const float *x, float *y, int nnz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  int row = -1;
  float v = 0.0f;
  if (i < nnz) {
    row = row_idx[i];
    v = val[i] * x[col_idx[i]];
  }
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    float nv = __shfl_down_sync(0xffffffffu, v, off);
    int nr = __shfl_down_sync(0xffffffffu, row, off);
    if (lane + off < 32 && nr == row) v += nv;
  }
  int prev = __shfl_up_sync(0xffffffffu, row, 1);
  if (row >= 0 && (lane == 0 || prev != row)) atomicAdd(y + row, v);
}

extern "C" void spmv_coo(const int *row_idx, const int *col_idx, const float *val, const float *x, float *y, int rows,
                         int nnz) {
  if (rows <= 0) return;
  cudaMemsetAsync(y, 0, sizeof(float) * (size_t)rows, 0);
  if (nnz > 0) coo_segmented<<<(nnz + 255) / 256, 256>>>(row_idx, col_idx, val, x, y, nnz);
}
