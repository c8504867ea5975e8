// strategy: block size, padded 32x33 shared tile with a 32x32 block (1024 threads, one element per thread)
#include <cuda_runtime.h>

#define TILE 32

__global__ void transpose_1024_kernel(const float *in, float *out, int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    int orow = blockIdx.x * TILE + threadIdx.y;  // a column of in
    int ocol = blockIdx.y * TILE + threadIdx.x;  // a row of in
    if (orow < cols && ocol < rows) out[(size_t)orow * rows + ocol] = tile[threadIdx.x][threadIdx.y];
}

extern "C" void transpose(const float *in, float *out, int rows, int cols) {
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_1024_kernel<<<grid, block>>>(in, out, rows, cols);
}

// rlbatch: copy 74
__device__ int rlbatch_tag_74 = 74;
