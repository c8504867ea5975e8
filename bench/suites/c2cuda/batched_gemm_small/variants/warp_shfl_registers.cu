// strategy: warp-level primitives, one warp per matrix: lane j keeps column j of B in registers and A[i][k] is broadcast with __shfl_sync, no shared memory
#include <cuda_runtime.h>

#define WARPS_PER_BLOCK 4

__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32) bgemm_warp_kernel(const float *A, const float *B, float *C, int batch, int n) {
    int b = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (b >= batch) return;  // per-warp condition
    size_t nn = (size_t)n * n;
    const float *a = A + b * nn, *bm = B + b * nn;
    float *c = C + b * nn;
    float bcol[32];
    // Lanes and rows past n hold zeros, so the k loop always runs to 32.
#pragma unroll
    for (int k = 0; k < 32; k++) bcol[k] = (k < n && lane < n) ? bm[k * n + lane] : 0.0f;
    for (int i = 0; i < n; i++) {
        float aik = lane < n ? a[i * n + lane] : 0.0f;
        float acc = 0.0f;
#pragma unroll
        for (int k = 0; k < 32; k++) acc += __shfl_sync(0xffffffffu, aik, k) * bcol[k];
        if (lane < n) c[i * n + lane] = acc;
    }
}

extern "C" void batched_gemm_small(const float *A, const float *B, float *C, int batch, int n) {
    if (batch <= 0) return;
    bgemm_warp_kernel<<<(batch + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK, WARPS_PER_BLOCK * 32>>>(A, B, C, batch, n);
}
