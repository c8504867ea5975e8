// strategy: deliberately poor, uncoalesced: threadIdx.x runs along rows, so a warp reads A and writes C with a stride of K and N floats
#include <cuda_runtime.h>

__global__ void gbr_uncoalesced_kernel(const float *A, const float *B, const float *bias, float *C, int M, int N, int K) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = fmaxf(acc + bias[col], 0.0f);
}

extern "C" void gemm_bias_relu(const float *A, const float *B, const float *bias, float *C, int M, int N, int K) {
    dim3 block(32, 8);
    dim3 grid((M + 31) / 32, (N + 7) / 8);
    gbr_uncoalesced_kernel<<<grid, block>>>(A, B, bias, C, M, N, K);
}
