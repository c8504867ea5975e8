// Block sum reduction with a bug: the barrier sits inside a branch that
// depends on threadIdx.x, so threads of the block that skip the branch never
// reach it (undefined behaviour; hangs or wrong sums in practice). The
// interleaved indexing (tid % (2*s)) also makes warps diverge.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void reduce_divergent(const float *in, float *out, int n) {
    __shared__ float sdata[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
            __syncthreads();
        }
    }
    if (tid == 0) {
        atomicAdd(out, sdata[0]);
    }
}

void launch_reduce(const float *in, float *out, int n) {
    reduce_divergent<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
