// strategy: warp-level primitives, one warp per row with coalesced strided loads and a __shfl_down_sync reduction
#include <cuda_runtime.h>

__global__ void matvec_warp_row_kernel(const float *A, const float *x, float *y, int M, int N) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= M) return;  // whole warp leaves together: M is compared per warp
    const float *a = A + (size_t)warp * N;
    float acc = 0.0f;
    for (int j = lane; j < N; j += 32) acc += a[j] * __ldg(x + j);
#pragma unroll
    for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffffu, acc, off);
    if (lane == 0) y[warp] = acc;
}

static void matvec_rlbatch_impl(const float *A, const float *x, float *y, int M, int N) {
    const int threads = 256;  // 8 rows per block
    int blocks = (int)(((long long)M * 32 + threads - 1) / threads);
    matvec_warp_row_kernel<<<blocks, threads>>>(A, x, y, M, N);
}

extern "C" void matvec(const float *A, const float *x, float *y, int M, int N) {
    matvec_rlbatch_impl(A, x, y, M, N);
}

// rlbatch: copy 71
__device__ int rlbatch_tag_71 = 71;
