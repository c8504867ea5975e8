// strategy: naive (coalesced) - one thread per output C[r][c], consecutive threads take consecutive columns, so each gathered row of B is read contiguously
#include <cuda_runtime.h>

__global__ void spmm_elem(const int *row_ptr, const int *col_idx, const float *val, const float *B, float *C, int rows,
                          int ncols) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)rows * ncols) return;
  int r = (int)(t / ncols), c = (int)(t % ncols);
  float acc = 0.0f;
  for (int i = row_ptr[r]; i < row_ptr[r + 1]; i++) acc += val[i] * B[(long long)col_idx[i] * ncols + c];
  C[t] = acc;
}

extern "C" void spmm_csr(const int *row_ptr, const int *col_idx, const float *val, const float *B, float *C, int rows,
                         int ncols, int nnz) {
  long long total = (long long)rows * ncols;
  if (total <= 0) return;
  spmm_elem<<<(unsigned)((total + 255) / 256), 256>>>(row_ptr, col_idx, val, B, C, rows, ncols);
}
