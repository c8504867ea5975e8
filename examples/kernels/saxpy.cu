// saxpy: y = a*x + y, one element per thread. Coalesced, no shared memory.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

void launch_saxpy(int n, float a, const float *x, float *y) {
    const int threads = 256;
    saxpy<<<(n + threads - 1) / threads, threads>>>(n, a, x, y);
}
