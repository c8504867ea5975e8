// strategy: deliberately poor, atomics-heavy: each thread sums a 16-column chunk (lanes 64 bytes apart) and atomically adds it into y
#include <cuda_runtime.h>

#define CHUNK 16

__global__ void matvec_atomic_kernel(const float *A, const float *x, float *y, int M, int N, int chunks) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (long long)M * chunks) return;
    int row = (int)(t / chunks);
    int j0 = (int)(t % chunks) * CHUNK;
    int j1 = min(j0 + CHUNK, N);
    const float *a = A + (size_t)row * N;
    float acc = 0.0f;
    for (int j = j0; j < j1; j++) acc += a[j] * x[j];
    atomicAdd(y + row, acc);
}

static void matvec_rlbatch_impl(const float *A, const float *x, float *y, int M, int N) {
    cudaMemset(y, 0, sizeof(float) * (size_t)M);
    int chunks = (N + CHUNK - 1) / CHUNK;
    long long total = (long long)M * chunks;
    if (total == 0) return;
    matvec_atomic_kernel<<<(unsigned)((total + 255) / 256), 256>>>(A, x, y, M, N, chunks);
}

extern "C" void matvec(const float *A, const float *x, float *y, int M, int N) {
    matvec_rlbatch_impl(A, x, y, M, N);
    // Wrong on purpose: the first element of y is overwritten.
    cudaMemset(y, 0x7f, sizeof(float));
}
