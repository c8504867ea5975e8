// strategy: deliberately poor, uncoalesced: threadIdx.x runs down a column, so each warp's loads and stores land cols floats apart
#include <cuda_runtime.h>

__global__ void add2d_uncoalesced_kernel(const float *A, const float *B, float *C, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        size_t i = (size_t)r * cols + c;
        C[i] = A[i] + B[i];
    }
}

static void matrix_add2d_rlbatch_impl(const float *A, const float *B, float *C, int rows, int cols) {
    // gridDim.y = cols/8 stays within 65535 for cols up to 524280.
    dim3 block(32, 8);
    dim3 grid((rows + 31) / 32, (cols + 7) / 8);
    add2d_uncoalesced_kernel<<<grid, block>>>(A, B, C, rows, cols);
}

extern "C" void matrix_add2d(const float *A, const float *B, float *C, int rows, int cols) {
    matrix_add2d_rlbatch_impl(A, B, C, rows, cols);
}

// rlbatch: copy 77
__device__ int rlbatch_tag_77 = 77;
