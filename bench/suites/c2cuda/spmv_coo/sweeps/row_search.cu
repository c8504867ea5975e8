// strategy: search then gather - one thread per row finds its range [first, last) of the sorted row indices with two binary searches, then sums it serially (no atomics, no zeroing; dense rows make a warp wait for its longest row); BLOCK threads per block
// sweep: BLOCK = 64, 128, 256, 512, 1024
#include <cuda_runtime.h>

__device__ int lower_bound_row(const int *row_idx, int nnz, int r) {
  int lo = 0, hi = nnz;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (row_idx[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

__global__ void coo_search(const int *row_idx, const int *col_idx, const float *val, const float *x, float *y, int rows,
                           int nnz) {
  int r = blockIdx.x * BLOCK + threadIdx.x;
  if (r >= rows) return;
  int b = lower_bound_row(row_idx, nnz, r), e = lower_bound_row(row_idx, nnz, r + 1);
  float acc = 0.0f;
  for (int i = b; i < e; i++) acc += val[i] * x[col_idx[i]];
  y[r] = acc;
}

extern "C" void spmv_coo(const int *row_idx, const int *col_idx, const float *val, const float *x, float *y, int rows,
                         int nnz) {
  if (rows <= 0) return;
  coo_search<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(row_idx, col_idx, val, x, y, rows, nnz);
}
