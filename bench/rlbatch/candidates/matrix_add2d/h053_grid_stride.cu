// strategy: grid-stride loop, a fixed grid of 1056 blocks x 256 threads sweeps the flat array, each thread handling many elements
#include <cuda_runtime.h>

__global__ void add2d_gridstride_kernel(const float *A, const float *B, float *C, long long n) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) C[i] = A[i] + B[i];
}

static void matrix_add2d_rlbatch_impl(const float *A, const float *B, float *C, int rows, int cols) {
    long long n = (long long)rows * cols;
    if (n <= 0) return;
    long long want = (n + 255) / 256;
    int blocks = (int)(want < 1056 ? want : 1056);  // 8 blocks per SM on a 132-SM H200
    add2d_gridstride_kernel<<<blocks, 256>>>(A, B, C, n);
}

extern "C" void matrix_add2d(const float *A, const float *B, float *C, int rows, int cols) {
    matrix_add2d_rlbatch_impl(A, B, C, rows, cols);
}

// rlbatch: copy 53
__device__ int rlbatch_tag_53 = 53;
