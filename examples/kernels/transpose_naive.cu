// Naive matrix transpose: reads are coalesced, writes are strided by the
// row length, so every warp store touches 32 different sectors.
#include <cuda_runtime.h>

#define TILE 32

__global__ void transpose_naive(const float *in, float *out, int rows, int cols) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) {
        out[x * rows + y] = in[y * cols + x];
    }
}

void launch_transpose_naive(const float *in, float *out, int rows, int cols) {
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
}
