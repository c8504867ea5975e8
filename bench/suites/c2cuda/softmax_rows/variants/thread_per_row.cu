// strategy: naive, uncoalesced: one thread per row makes three sequential passes over it, so the lanes of a warp read addresses cols floats apart
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_thread_row_kernel(const float *x, float *y, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float *xr = x + (size_t)r * cols;
    float *yr = y + (size_t)r * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; c++) m = fmaxf(m, xr[c]);
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += expf(xr[c] - m);
    float inv = 1.0f / s;
    for (int c = 0; c < cols; c++) yr[c] = expf(xr[c] - m) * inv;
}

extern "C" void softmax_rows(const float *x, float *y, int rows, int cols) {
    softmax_thread_row_kernel<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
}
