// strategy: naive, uncoalesced: one thread per row walks its row, so the lanes of a warp read addresses N floats apart
#include <cuda_runtime.h>

__global__ void matvec_thread_row_kernel(const float *A, const float *x, float *y, int M, int N) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M) return;
    const float *a = A + (size_t)row * N;
    float acc = 0.0f;
    for (int j = 0; j < N; j++) acc += a[j] * x[j];
    y[row] = acc;
}

static void matvec_rlbatch_impl(const float *A, const float *x, float *y, int M, int N) {
    matvec_thread_row_kernel<<<(M + 127) / 128, 128>>>(A, x, y, M, N);
}

extern "C" void matvec(const float *A, const float *x, float *y, int M, int N) {
    matvec_rlbatch_impl(A, x, y, M, N);
}

// rlbatch: copy 23
__device__ int rlbatch_tag_23 = 23;
