// strategy: naive, one thread per element in 16x16 blocks, threadIdx.x along the row so stores coalesce
#include <cuda_runtime.h>

__global__ void outer_naive_kernel(const float *u, const float *v, float *A, int M, int N) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < M && j < N) A[(size_t)i * N + j] = u[i] * v[j];
}

extern "C" void outer_product(const float *u, const float *v, float *A, int M, int N) {
    // Grid x covers columns (up to 2^31-1 blocks); grid y covers rows in
    // groups of 16, within 65535 for M up to 1048560.
    dim3 block(16, 16);
    dim3 grid((N + 15) / 16, (M + 15) / 16);
    outer_naive_kernel<<<grid, block>>>(u, v, A, M, N);
}
