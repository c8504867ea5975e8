// strategy: naive, reads of a row coalesce but each warp's writes land cols floats apart (uncoalesced stores)
#include <cuda_runtime.h>

__global__ void transpose_naive_kernel(const float *in, float *out, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

extern "C" void transpose(const float *in, float *out, int rows, int cols) {
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    transpose_naive_kernel<<<grid, block>>>(in, out, rows, cols);
}

// rlbatch: copy 10
__device__ int rlbatch_tag_10 = 10;
