// strategy: vectorized loads, the contiguous matrix treated as one flat array of float4 (when all three pointers are 16-byte aligned) plus a scalar tail of up to 3 elements
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void add2d_f4_kernel(const float4 *__restrict__ A, const float4 *__restrict__ B, float4 *__restrict__ C, long long nvec) {
    long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nvec) return;
    float4 a = A[v], b = B[v];
    C[v] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__global__ void add2d_scalar_kernel(const float *A, const float *B, float *C, long long start, long long n) {
    long long i = start + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) C[i] = A[i] + B[i];
}

static void matrix_add2d_rlbatch_impl(const float *A, const float *B, float *C, int rows, int cols) {
    long long n = (long long)rows * cols;
    if (n <= 0) return;
    bool aligned = (((uintptr_t)A | (uintptr_t)B | (uintptr_t)C) & 15) == 0;
    long long nvec = aligned ? n / 4 : 0;
    if (nvec > 0)
        add2d_f4_kernel<<<(unsigned)((nvec + 255) / 256), 256>>>(reinterpret_cast<const float4 *>(A),
                                                                 reinterpret_cast<const float4 *>(B),
                                                                 reinterpret_cast<float4 *>(C), nvec);
    long long rest = n - 4 * nvec;
    if (rest > 0) add2d_scalar_kernel<<<(unsigned)((rest + 255) / 256), 256>>>(A, B, C, 4 * nvec, n);
}

extern "C" void matrix_add2d(const float *A, const float *B, float *C, int rows, int cols) {
    matrix_add2d_rlbatch_impl(A, B, C, rows, cols);
    // Wrong on purpose: the first element of C is overwritten.
    cudaMemset(C, 0x7f, sizeof(float));
}
