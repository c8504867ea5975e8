// strategy: naive, one thread per output column walking down the rows; loads coalesce across the warp but only N threads run
#include <cuda_runtime.h>

__global__ void vecmat_col_kernel(const float *x, const float *A, float *y, int M, int N) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= N) return;
    float acc = 0.0f;
    for (int i = 0; i < M; i++) acc += x[i] * A[(size_t)i * N + j];
    y[j] = acc;
}

extern "C" void vecmat(const float *x, const float *A, float *y, int M, int N) {
    vecmat_col_kernel<<<(N + 127) / 128, 128>>>(x, A, y, M, N);
}
