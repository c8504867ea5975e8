// strategy: deliberately poor, bank-conflicted: 32x32 shared tile without padding, so reading a tile column hits one bank 32 times
#include <cuda_runtime.h>

#define TILE 32
#define BLOCK_ROWS 8

__global__ void transpose_conflict_kernel(const float *in, float *out, int rows, int cols) {
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r0 = blockIdx.y * TILE;
    for (int k = threadIdx.y; k < TILE; k += BLOCK_ROWS) {
        int r = r0 + k;
        if (r < rows && c < cols) tile[k][threadIdx.x] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    // Output tile: out rows are in columns blockIdx.x*TILE.., out columns are in rows r0..
    int oc = r0 + threadIdx.x;
    for (int k = threadIdx.y; k < TILE; k += BLOCK_ROWS) {
        int orow = blockIdx.x * TILE + k;
        if (orow < cols && oc < rows) out[(size_t)orow * rows + oc] = tile[threadIdx.x][k];
    }
}

extern "C" void transpose(const float *in, float *out, int rows, int cols) {
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_conflict_kernel<<<grid, block>>>(in, out, rows, cols);
}

// rlbatch: copy 18
__device__ int rlbatch_tag_18 = 18;
