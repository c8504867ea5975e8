// strategy: shared-memory tiling - TILE x (TILE+PAD) tile, TILE x BLOCK_ROWS threads each moving TILE/BLOCK_ROWS elements, coalesced reads and writes
// sweep: TILE = 16, 32
// sweep: BLOCK_ROWS = 2, 4, 8, 16, 32
// sweep: PAD = 0, 1
// sweep-require: BLOCK_ROWS <= TILE
#include <cuda_runtime.h>


__global__ void transpose_padded_kernel(const float *in, float *out, int rows, int cols) {
    __shared__ float tile[TILE][TILE + PAD];  // PAD 1 spreads a tile column over distinct banks; PAD 0 makes column reads conflict
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
