// strategy: atomics - zero y, then one thread per stored entry atomicAdd-s its product into its row (dense rows serialise on one address)
#include <cuda_runtime.h>

__global__ void coo_atomic(const int *row_idx, const int *col_idx, const float *val, const float *x, float *y, int nnz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nnz) atomicAdd(y + row_idx[i], val[i] * x[col_idx[i]]);
}

extern "C" void spmv_coo(const int *row_idx, const int *col_idx, const float *val, const float *x, float *y, int rows,
                         int nnz) {
  if (rows <= 0) return;
  cudaMemsetAsync(y, 0, sizeof(float) * (size_t)rows, 0);
  if (nnz > 0) coo_atomic<<<(nnz + 255) / 256, 256>>>(row_idx, col_idx, val, x, y, nnz);
}
