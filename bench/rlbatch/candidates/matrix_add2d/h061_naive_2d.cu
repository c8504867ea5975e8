// strategy: naive, one thread per element in 16x16 blocks, threadIdx.x along the row so loads and stores coalesce
#include <cuda_runtime.h>

__global__ void add2d_naive_kernel(const float *A, const float *B, float *C, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        size_t i = (size_t)r * cols + c;
        C[i] = A[i] + B[i];
    }
}

static void matrix_add2d_rlbatch_impl(const float *A, const float *B, float *C, int rows, int cols) {
    // gridDim.y = rows/16 stays within 65535 for rows up to 1048560.
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    add2d_naive_kernel<<<grid, block>>>(A, B, C, rows, cols);
}

extern "C" void matrix_add2d(const float *A, const float *B, float *C, int rows, int cols) {
    matrix_add2d_rlbatch_impl(A, B, C, rows, cols);
}

// rlbatch: copy 61
__device__ int rlbatch_tag_61 = 61;
