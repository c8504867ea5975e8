// strategy: shared-memory reduction, one 256-thread block per row, coalesced loads, tree reduction in shared memory
#include <cuda_runtime.h>

#define THREADS 256

__global__ void matvec_block_row_kernel(const float *A, const float *x, float *y, int M, int N) {
    __shared__ float part[THREADS];
    int row = blockIdx.x;
    const float *a = A + (size_t)row * N;
    float acc = 0.0f;
    for (int j = threadIdx.x; j < N; j += THREADS) acc += a[j] * x[j];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) y[row] = part[0];
}

static void matvec_rlbatch_impl(const float *A, const float *x, float *y, int M, int N) {
    // One block per row; M is at most 2^31-1, within gridDim.x's limit.
    if (M > 0) matvec_block_row_kernel<<<M, THREADS>>>(A, x, y, M, N);
}

extern "C" void matvec(const float *A, const float *x, float *y, int M, int N) {
    matvec_rlbatch_impl(A, x, y, M, N);
    // Wrong on purpose: the first element of y is overwritten.
    cudaMemset(y, 0xc1, sizeof(float));
}
