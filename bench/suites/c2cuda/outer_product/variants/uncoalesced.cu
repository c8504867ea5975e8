// strategy: deliberately poor, uncoalesced: threadIdx.x runs down a column, so the 32 stores of a warp land N floats apart
#include <cuda_runtime.h>

__global__ void outer_uncoalesced_kernel(const float *u, const float *v, float *A, int M, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < M && j < N) A[(size_t)i * N + j] = u[i] * v[j];
}

extern "C" void outer_product(const float *u, const float *v, float *A, int M, int N) {
    // Grid y covers columns in groups of 8: within 65535 for N up to 524280.
    dim3 block(32, 8);
    dim3 grid((M + 31) / 32, (N + 7) / 8);
    outer_uncoalesced_kernel<<<grid, block>>>(u, v, A, M, N);
}
