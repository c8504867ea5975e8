// strategy: shared-memory reduction, 32x8 blocks: 32 columns per block, 8 row groups each summing every 8th row (coalesced), partials reduced in shared memory
#include <cuda_runtime.h>

#define COLS 32
#define ROWS 8

__global__ void vecmat_rowsplit_kernel(const float *x, const float *A, float *y, int M, int N) {
    __shared__ float part[ROWS][COLS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int j = blockIdx.x * COLS + tx;
    float acc = 0.0f;
    if (j < N)
        for (int i = ty; i < M; i += ROWS) acc += x[i] * A[(size_t)i * N + j];
    part[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && j < N) {
        float s = 0.0f;
#pragma unroll
        for (int r = 0; r < ROWS; r++) s += part[r][tx];
        y[j] = s;
    }
}

extern "C" void vecmat(const float *x, const float *A, float *y, int M, int N) {
    dim3 block(COLS, ROWS);
    vecmat_rowsplit_kernel<<<(N + COLS - 1) / COLS, block>>>(x, A, y, M, N);
}
