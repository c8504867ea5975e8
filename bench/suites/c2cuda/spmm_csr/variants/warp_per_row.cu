// strategy: warp primitives - one warp per sparse row: the lanes load 32 entries at once, then broadcast each (column, value) with __shfl_sync while every lane accumulates its own output column
#include <cuda_runtime.h>

__global__ void spmm_warp(const int *row_ptr, const int *col_idx, const float *val, const float *B, float *C, int rows,
                          int ncols) {
  int lane = threadIdx.x & 31;
  long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (r >= rows) return;  // warp-uniform
  int b = row_ptr[r], e = row_ptr[r + 1];
  for (int c0 = 0; c0 < ncols; c0 += 32) {
    int c = c0 + lane;
    float acc = 0.0f;
    for (int i0 = b; i0 < e; i0 += 32) {
      int ci = 0;
      float vi = 0.0f;
      if (i0 + lane < e) {
        ci = col_idx[i0 + lane];
        vi = val[i0 + lane];
      }
      int n = min(32, e - i0);
      for (int k = 0; k < n; k++) {
        int col = __shfl_sync(0xffffffffu, ci, k);
        float v = __shfl_sync(0xffffffffu, vi, k);
        if (c < ncols) acc += v * B[(long long)col * ncols + c];
      }
    }
    if (c < ncols) C[r * ncols + c] = acc;
  }
}

extern "C" void spmm_csr(const int *row_ptr, const int *col_idx, const float *val, const float *B, float *C, int rows,
                         int ncols, int nnz) {
  if (rows <= 0 || ncols <= 0) return;
  long long threads = (long long)rows * 32;
  spmm_warp<<<(unsigned)((threads + 255) / 256), 256>>>(row_ptr, col_idx, val, B, C, rows, ncols);
}
