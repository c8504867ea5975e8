// strategy: naive, one thread per output element with bias and relu fused, threadIdx.x along columns so B and C accesses coalesce
#include <cuda_runtime.h>

__global__ void gbr_naive_kernel(const float *A, const float *B, const float *bias, float *C, int M, int N, int K) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = fmaxf(acc + bias[col], 0.0f);
}

extern "C" void gemm_bias_relu(const float *A, const float *B, const float *bias, float *C, int M, int N, int K) {
    dim3 block(16, 16);
    dim3 grid((N + 15) / 16, (M + 15) / 16);
    gbr_naive_kernel<<<grid, block>>>(A, B, bias, C, M, N, K);
}
