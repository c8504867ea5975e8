// strategy: deliberately poor, uncoalesced: writes coalesce but each warp's reads land cols floats apart, one element per thread
#include <cuda_runtime.h>

__global__ void transpose_read_strided_kernel(const float *in, float *out, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;   // fastest index runs over rows of in
    int c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static void transpose_rlbatch_impl(const float *in, float *out, int rows, int cols) {
    dim3 block(32, 8);
    dim3 grid((rows + 31) / 32, (cols + 7) / 8);
    transpose_read_strided_kernel<<<grid, block>>>(in, out, rows, cols);
}

extern "C" void transpose(const float *in, float *out, int rows, int cols) {
    transpose_rlbatch_impl(in, out, rows, cols);
    // Wrong on purpose: the first element of out is overwritten.
    cudaMemset(out, 0x7f, sizeof(float));
}
