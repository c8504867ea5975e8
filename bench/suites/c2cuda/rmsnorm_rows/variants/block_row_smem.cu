// strategy: shared-memory reduction, one 256-thread block per row, sum of squares reduced with a shared-memory tree, coalesced passes
#include <cuda_runtime.h>

#define THREADS 256

__global__ void rmsnorm_block_row_kernel(const float *x, const float *gamma, float *y, int rows, int cols) {
    __shared__ float red[THREADS];
    const float *xr = x + (size_t)blockIdx.x * cols;
    float *yr = y + (size_t)blockIdx.x * cols;
    int t = threadIdx.x;
    float ss = 0.0f;
    for (int c = t; c < cols; c += THREADS) ss += xr[c] * xr[c];
    red[t] = ss;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s /= 2) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    float scale = rsqrtf(red[0] / cols + 1e-6f);
    for (int c = t; c < cols; c += THREADS) yr[c] = xr[c] * scale * gamma[c];
}

extern "C" void rmsnorm_rows(const float *x, const float *gamma, float *y, int rows, int cols) {
    if (rows > 0) rmsnorm_block_row_kernel<<<rows, THREADS>>>(x, gamma, y, rows, cols);
}
