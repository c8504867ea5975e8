// strategy: warp-level primitives, one warp per row, max and sum reduced with __shfl_xor_sync, three coalesced passes
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_warp_row_kernel(const float *x, float *y, int rows, int cols) {
    long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (r >= rows) return;  // per-warp condition
    const float *xr = x + (size_t)r * cols;
    float *yr = y + (size_t)r * cols;
    float m = -INFINITY;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
#pragma unroll
    for (int off = 16; off > 0; off /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32) s += expf(xr[c] - m);
#pragma unroll
    for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
    float inv = 1.0f / s;
    for (int c = lane; c < cols; c += 32) yr[c] = expf(xr[c] - m) * inv;
}

extern "C" void softmax_rows(const float *x, float *y, int rows, int cols) {
    long long threads = (long long)rows * 32;
    softmax_warp_row_kernel<<<(unsigned)((threads + 255) / 256), 256>>>(x, y, rows, cols);
}
