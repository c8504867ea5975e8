// strategy: block size and indexing, a flat 1D grid of 64-thread blocks that recovers (i, j) with a 64-bit division and modulo per element
#include <cuda_runtime.h>

__global__ void outer_flat_kernel(const float *u, const float *v, float *A, int M, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)M * N;
    if (idx >= total) return;
    long long i = idx / N, j = idx % N;
    A[idx] = u[i] * v[j];
}

extern "C" void outer_product(const float *u, const float *v, float *A, int M, int N) {
    long long total = (long long)M * N;
    if (total == 0) return;
    outer_flat_kernel<<<(unsigned)((total + 63) / 64), 64>>>(u, v, A, M, N);
}
