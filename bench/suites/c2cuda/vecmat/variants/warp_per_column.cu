// strategy: deliberately poor, uncoalesced: one warp per column, lanes walk down the rows so each load touches 32 rows N floats apart
#include <cuda_runtime.h>

__global__ void vecmat_warp_col_kernel(const float *x, const float *A, float *y, int M, int N) {
    long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (w >= N) return;  // per-warp condition: the whole warp leaves
    int j = (int)w;
    float acc = 0.0f;
    for (int i = lane; i < M; i += 32) acc += x[i] * A[(size_t)i * N + j];
#pragma unroll
    for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
    if (lane == 0) y[j] = acc;
}

extern "C" void vecmat(const float *x, const float *A, float *y, int M, int N) {
    long long threads = (long long)N * 32;
    vecmat_warp_col_kernel<<<(unsigned)((threads + 255) / 256), 256>>>(x, A, y, M, N);
}
