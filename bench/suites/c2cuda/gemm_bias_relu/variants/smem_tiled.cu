// strategy: shared-memory tiling, 32x32 tiles of A and B staged in shared memory, bias and relu fused into the store
#include <cuda_runtime.h>

#define TILE 32

__global__ void gbr_tiled_kernel(const float *A, const float *B, const float *bias, float *C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        // Out-of-range elements load as zero so the inner loop needs no guard.
        As[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = fmaxf(acc + bias[col], 0.0f);
}

extern "C" void gemm_bias_relu(const float *A, const float *B, const float *bias, float *C, int M, int N, int K) {
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    gbr_tiled_kernel<<<grid, block>>>(A, B, bias, C, M, N, K);
}
