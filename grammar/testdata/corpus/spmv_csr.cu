#include <cuda_runtime.h>

// CSR SpMV: scalar kernel (one thread per row) and vector kernel (one warp per row).
__global__ void spmv_csr_scalar(int num_rows, const int *__restrict__ ptr, const int *__restrict__ indices,
                                const float *__restrict__ data, const float *__restrict__ x, float *__restrict__ y) {
  int row = blockDim.x * blockIdx.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0;
    int row_start = ptr[row];
    int row_end = ptr[row + 1];
    for (int jj = row_start; jj < row_end; jj++) dot += data[jj] * x[indices[jj]];
    y[row] = dot;
  }
}

__global__ void spmv_csr_vector(int num_rows, const int *__restrict__ ptr, const int *__restrict__ indices,
                                const float *__restrict__ data, const float *__restrict__ x, float *__restrict__ y) {
  int thread_id = blockDim.x * blockIdx.x + threadIdx.x;
  int warp_id = thread_id / 32;
  int lane = thread_id & 31;
  int row = warp_id;
  if (row < num_rows) {
    int row_start = ptr[row];
    int row_end = ptr[row + 1];
    float sum = 0;
    for (int jj = row_start + lane; jj < row_end; jj += 32) sum += data[jj] * __ldg(&x[indices[jj]]);
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (lane == 0) y[row] = sum;
  }
}

void spmv(int rows, const int *ptr, const int *idx, const float *val, const float *x, float *y, bool vector) {
  if (vector) {
    int warps_per_block = 8;
    spmv_csr_vector<<<(rows + warps_per_block - 1) / warps_per_block, warps_per_block * 32>>>(rows, ptr, idx, val, x, y);
  } else {
    spmv_csr_scalar<<<(rows + 255) / 256, 256>>>(rows, ptr, idx, val, x, y);
  }
}
