// strategy: deliberately poor, uncoalesced: writes coalesce but each warp's reads land cols floats apart, one element per thread
#include <cuda_runtime.h>

__global__ void transpose_read_strided_kernel(const float *in, float *out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;   // fastest index runs over rows of in
    int c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

extern "C" void transpose(const float *in, float *out, int rows, int cols) {
    dim3 block(32, 8);
    dim3 grid((rows + 31) / 32, (cols + 7) / 8);
    transpose_read_strided_kernel<<<grid, block>>>(in, out, rows, cols);
}

// rlbatch: copy 82
__device__ int rlbatch_tag_82 = 82;
