// 1D three-point stencil through shared memory with a race: threads read
// their neighbours' shared-memory slots without a barrier after the writes.
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void stencil_race(const float *in, float *out, int n) {
    __shared__ float s[BLOCK + 2];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + 1;
    s[t] = (i < n) ? in[i] : 0.0f;
    if (threadIdx.x == 0) {
        s[0] = (i > 0) ? in[i - 1] : 0.0f;
        s[BLOCK + 1] = (i + BLOCK < n) ? in[i + BLOCK] : 0.0f;
    }
    // Missing: __syncthreads();
    if (i < n) {
        out[i] = 0.25f * s[t - 1] + 0.5f * s[t] + 0.25f * s[t + 1];
    }
}

void launch_stencil(const float *in, float *out, int n) {
    stencil_race<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
