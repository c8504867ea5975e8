// strategy: register blocking, 32x8 threads each accumulating 4 columns (32 apart, so loads stay coalesced) over a 1024-row chunk with x staged in shared memory; chunks combined with one atomicAdd per column
#include <cuda_runtime.h>

#define TX 32
#define TY 8
#define COLS_PER_THREAD 4
#define BCOLS (TX * COLS_PER_THREAD)
#define ROW_CHUNK 1024

__global__ void __launch_bounds__(TX * TY) vecmat_rb_kernel(const float *x, const float *A, float *y, int M, int N) {
    __shared__ float xs[ROW_CHUNK];
    __shared__ float part[TY][BCOLS];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * TX + tx;
    int jb = blockIdx.x * BCOLS;
    int i0 = blockIdx.y * ROW_CHUNK;
    int rows = min(ROW_CHUNK, M - i0);
    for (int k = t; k < rows; k += TX * TY) xs[k] = x[i0 + k];
    __syncthreads();
    float acc[COLS_PER_THREAD];
#pragma unroll
    for (int c = 0; c < COLS_PER_THREAD; c++) acc[c] = 0.0f;
    for (int k = ty; k < rows; k += TY) {
        float xi = xs[k];
        const float *row = A + (size_t)(i0 + k) * N;
#pragma unroll
        for (int c = 0; c < COLS_PER_THREAD; c++) {
            int j = jb + tx + TX * c;
            if (j < N) acc[c] += xi * row[j];
        }
    }
#pragma unroll
    for (int c = 0; c < COLS_PER_THREAD; c++) part[ty][tx + TX * c] = acc[c];
    __syncthreads();
    // 256 threads, 128 columns: the first 128 threads finish one column each.
    if (t < BCOLS && jb + t < N) {
        float s = 0.0f;
#pragma unroll
        for (int r = 0; r < TY; r++) s += part[r][t];
        atomicAdd(y + jb + t, s);
    }
}

extern "C" void vecmat(const float *x, const float *A, float *y, int M, int N) {
    if (N <= 0) return;
    cudaMemset(y, 0, sizeof(float) * (size_t)N);
    if (M <= 0) return;
    dim3 block(TX, TY);
    dim3 grid((N + BCOLS - 1) / BCOLS, (M + ROW_CHUNK - 1) / ROW_CHUNK);
    vecmat_rb_kernel<<<grid, block>>>(x, A, y, M, N);
}
