// strategy: shared-memory reduction, one 256-thread block per row, coalesced passes, max and sum reduced with a shared-memory tree
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

__global__ void softmax_block_row_kernel(const float *x, float *y, int rows, int cols) {
    __shared__ float red[THREADS];
    const float *xr = x + (size_t)blockIdx.x * cols;
    float *yr = y + (size_t)blockIdx.x * cols;
    int t = threadIdx.x;
    float m = -INFINITY;
    for (int c = t; c < cols; c += THREADS) m = fmaxf(m, xr[c]);
    red[t] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s /= 2) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();  // everyone has read red[0] before it is reused
    float sum = 0.0f;
    for (int c = t; c < cols; c += THREADS) sum += expf(xr[c] - m);
    red[t] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s /= 2) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
    for (int c = t; c < cols; c += THREADS) yr[c] = expf(xr[c] - m) * inv;
}

extern "C" void softmax_rows(const float *x, float *y, int rows, int cols) {
    if (rows > 0) softmax_block_row_kernel<<<rows, THREADS>>>(x, y, rows, cols);
}
