// strategy: shared-memory tiling - TILE x TILE tiles of A and B staged in shared memory (rows padded by PAD), one output per thread
// sweep: TILE = 8, 16, 32
// sweep: PAD = 0, 1
#include <cuda_runtime.h>


__global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int M, int N, int K) {
    __shared__ float As[TILE][TILE + PAD];
    __shared__ float Bs[TILE][TILE + PAD];
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
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

extern "C" void matmul_fp32(const float *A, const float *B, float *C, int M, int N, int K) {
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
