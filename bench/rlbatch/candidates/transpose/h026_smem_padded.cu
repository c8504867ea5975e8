// strategy: shared-memory tiling, 32x33 padded tile (no bank conflicts), 32x8 threads each moving 4 elements, coalesced reads and writes
#include <cuda_runtime.h>

#define TILE 32
#define BLOCK_ROWS 8

__global__ void transpose_padded_kernel(const float *in, float *out, int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];  // +1 column: a tile column spans all 32 banks
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
    transpose_padded_kernel<<<grid, block>>>(in, out, rows, cols);
}

// rlbatch: copy 26
__device__ int rlbatch_tag_26 = 26;
