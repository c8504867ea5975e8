// strategy: deliberately poor, atomics-heavy: every thread squares a 16-element chunk and atomically adds it into a per-row scratch sum, then a second kernel scales
#include <cuda_runtime.h>

#define CHUNK 16

__global__ void rmsnorm_atomic_sumsq_kernel(const float *x, float *ss, int rows, int cols, int chunks) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (long long)rows * chunks) return;
    int r = (int)(t / chunks);
    int c0 = (int)(t % chunks) * CHUNK;
    int c1 = min(c0 + CHUNK, cols);
    const float *xr = x + (size_t)r * cols;
    float acc = 0.0f;
    for (int c = c0; c < c1; c++) acc += xr[c] * xr[c];
    atomicAdd(ss + r, acc);
}

__global__ void rmsnorm_scale_kernel(const float *x, const float *ss, const float *gamma, float *y, int rows, int cols) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)rows * cols) return;
    int r = (int)(i / cols), c = (int)(i % cols);
    y[i] = x[i] * rsqrtf(ss[r] / cols + 1e-6f) * gamma[c];
}

extern "C" void rmsnorm_rows(const float *x, const float *gamma, float *y, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    float *ss = nullptr;
    if (cudaMalloc(&ss, sizeof(float) * (size_t)rows) != cudaSuccess) return;
    cudaMemset(ss, 0, sizeof(float) * (size_t)rows);
    int chunks = (cols + CHUNK - 1) / CHUNK;
    long long n1 = (long long)rows * chunks;
    rmsnorm_atomic_sumsq_kernel<<<(unsigned)((n1 + 255) / 256), 256>>>(x, ss, rows, cols, chunks);
    long long n2 = (long long)rows * cols;
    rmsnorm_scale_kernel<<<(unsigned)((n2 + 255) / 256), 256>>>(x, ss, gamma, y, rows, cols);
    cudaFree(ss);
}
