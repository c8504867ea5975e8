// strategy: block size and work per thread: one thread per column walks all rows (coalesced across the warp, but only cols threads in 32-thread blocks)
#include <cuda_runtime.h>

__global__ void add2d_column_kernel(const float *A, const float *B, float *C, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    for (int r = 0; r < rows; r++) {
        size_t i = (size_t)r * cols + c;
        C[i] = A[i] + B[i];
    }
}

static void matrix_add2d_rlbatch_impl(const float *A, const float *B, float *C, int rows, int cols) {
    add2d_column_kernel<<<(cols + 31) / 32, 32>>>(A, B, C, rows, cols);
}

extern "C" void matrix_add2d(const float *A, const float *B, float *C, int rows, int cols) {
    matrix_add2d_rlbatch_impl(A, B, C, rows, cols);
}

// rlbatch: copy 69
__device__ int rlbatch_tag_69 = 69;
