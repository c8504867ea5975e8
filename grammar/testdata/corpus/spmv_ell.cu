#include <cuda_runtime.h>

// ELLPACK SpMV: column-major padded storage, so consecutive rows read
// consecutive addresses. Padding entries have column index -1.
__global__ void spmv_ell(int num_rows, int num_cols_per_row, const int *__restrict__ indices,
                         const float *__restrict__ data, const float *__restrict__ x, float *__restrict__ y) {
  int row = blockDim.x * blockIdx.x + threadIdx.x;
  if (row >= num_rows) return;
  float dot = 0;
  for (int n = 0; n < num_cols_per_row; n++) {
    int col = indices[num_rows * n + row];
    float val = data[num_rows * n + row];
    if (col >= 0) dot += val * x[col];
  }
  y[row] = dot;
}
