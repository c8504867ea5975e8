// strategy: search then gather - one warp per row finds the row's range with a binary search of the sorted row indices (lane 0), then sums it with coalesced lane-strided reads and a __shfl_down_sync reduction
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

__global__ void coo_warp_row(const int *row_idx, const int *col_idx, const float *val, const float *x, float *y, int rows,
                             int nnz) {
  int lane = threadIdx.x & 31;
  long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (r >= rows) return;  // warp-uniform
  int b = 0, e = 0;
  if (lane == 0) b = lower_bound_row(row_idx, nnz, (int)r);
  if (lane == 1) e = lower_bound_row(row_idx, nnz, (int)r + 1);
  b = __shfl_sync(0xffffffffu, b, 0);
  e = __shfl_sync(0xffffffffu, e, 1);
  float acc = 0.0f;
  for (int i = b + lane; i < e; i += 32) acc += val[i] * x[col_idx[i]];
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) y[r] = acc;
}

extern "C" void spmv_coo(const int *row_idx, const int *col_idx, const float *val, const float *x, float *y, int rows,
                         int nnz) {
  if (rows <= 0) return;
  long long threads = (long long)rows * 32;
  coo_warp_row<<<(unsigned)((threads + 255) / 256), 256>>>(row_idx, col_idx, val, x, y, rows, nnz);
}
