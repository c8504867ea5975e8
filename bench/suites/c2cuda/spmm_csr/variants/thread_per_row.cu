// strategy: deliberately poor (uncoalesced) - one thread per sparse row computes the whole output row: a warp's lanes read 32 unrelated rows of B and write 32 rows of C ncols*4 bytes apart
#include <cuda_runtime.h>

__global__ void spmm_row(const int *row_ptr, const int *col_idx, const float *val, const float *B, float *C, int rows,
                         int ncols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float *c = C + (long long)r * ncols;
  for (int j = 0; j < ncols; j++) c[j] = 0.0f;
  for (int i = row_ptr[r]; i < row_ptr[r + 1]; i++) {
    const float *b = B + (long long)col_idx[i] * ncols;
    float v = val[i];
    for (int j = 0; j < ncols; j++) c[j] += v * b[j];
  }
}

extern "C" void spmm_csr(const int *row_ptr, const int *col_idx, const float *val, const float *B, float *C, int rows,
                         int ncols, int nnz) {
  if (rows <= 0 || ncols <= 0) return;
  spmm_row<<<(rows + 127) / 128, 128>>>(row_ptr, col_idx, val, B, C, rows, ncols);
}
