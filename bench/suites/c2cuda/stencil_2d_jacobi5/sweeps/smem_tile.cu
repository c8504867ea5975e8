// strategy: shared-memory tiling + register blocking - a BX x (BY*RY) output tile per block of BX x BY threads, the input tile with its 1-pixel halo staged in shared memory (rows padded by PAD floats), each thread computing RY outputs spaced BY rows apart
// sweep: BX = 16, 32, 64, 128
// sweep: BY = 1, 2, 4, 8, 16
// sweep: RY = 1, 2, 4, 8
// sweep: PAD = 0, 1
// sweep-require: BX * BY <= 1024
// sweep-require: BX * BY >= 64
// sweep-require: (BY * RY + 2 * 1) * (BX + 2 * 1 + PAD) * 4 <= 49152
#include <cuda_runtime.h>

#define HALO 1
#define TILE_H (BY * RY)
#define TILE_W (BX + 2 * HALO)

__global__ void __launch_bounds__(BX * BY) jacobi_tile(const float *__restrict__ in, float *__restrict__ out, int cols, int rows) {
  __shared__ float tile[TILE_H + 2 * HALO][TILE_W + PAD];
  const int x0 = blockIdx.x * BX, y0 = blockIdx.y * TILE_H;
  const int tid = threadIdx.y * BX + threadIdx.x;
  for (int i = tid; i < (TILE_H + 2 * HALO) * TILE_W; i += BX * BY) {
    int ty = i / TILE_W, tx = i % TILE_W;
    int gy = y0 + ty - HALO, gx = x0 + tx - HALO;
    gy = min(max(gy, 0), rows - 1);  // halo cells outside the grid feed only boundary points, which copy
    gx = min(max(gx, 0), cols - 1);
    tile[ty][tx] = in[(size_t)gy * cols + gx];
  }
  __syncthreads();
  const int x = x0 + threadIdx.x;
  if (x >= cols) return;
#pragma unroll
  for (int q = 0; q < RY; q++) {
    const int ly = threadIdx.y + q * BY, y = y0 + ly;
    if (y >= rows) break;
    const int lx = threadIdx.x + HALO, yy = ly + HALO;
    float v = tile[yy][lx];
    if (y > 0 && y < rows - 1 && x > 0 && x < cols - 1)
      v = 0.25f * ((tile[yy - 1][lx] + tile[yy + 1][lx]) + (tile[yy][lx - 1] + tile[yy][lx + 1]));
    out[(size_t)y * cols + x] = v;
  }
}

extern "C" void stencil_2d_jacobi5(const float *in, float *out, int rows, int cols) {
  if (cols <= 0 || rows <= 0) return;
  dim3 block(BX, BY);
  dim3 grid((cols + BX - 1) / BX, (rows + TILE_H - 1) / TILE_H);
  jacobi_tile<<<grid, block>>>(in, out, rows, cols);
}
