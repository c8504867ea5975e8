// strategy: shared-memory tiling + register blocking - a BX x (BY*RY) output tile per block of BX x BY threads, the input tile with its 3-pixel halo staged in shared memory (rows padded by PAD floats), each thread computing RY outputs spaced BY rows apart
// sweep: BX = 16, 32, 64, 128
// sweep: BY = 1, 2, 4, 8, 16
// sweep: RY = 1, 2, 4, 8
// sweep: PAD = 0, 1
// sweep-require: BX * BY <= 1024
// sweep-require: BX * BY >= 64
// sweep-require: (BY * RY + 2 * 3) * (BX + 2 * 3 + PAD) * 4 <= 49152
#include <cuda_runtime.h>

#define RAD 3
#define TILE_H (BY * RY)
#define TILE_W (BX + 2 * RAD)

__global__ void __launch_bounds__(BX * BY) box_blur_tile(const float *__restrict__ in, float *__restrict__ out, int width, int height) {
  __shared__ float tile[TILE_H + 2 * RAD][TILE_W + PAD];
  const int x0 = blockIdx.x * BX, y0 = blockIdx.y * TILE_H;
  const int tid = threadIdx.y * BX + threadIdx.x;
  for (int i = tid; i < (TILE_H + 2 * RAD) * TILE_W; i += BX * BY) {
    int ty = i / TILE_W, tx = i % TILE_W;
    int gy = y0 + ty - RAD, gx = x0 + tx - RAD;
    gy = min(max(gy, 0), height - 1);
    gx = min(max(gx, 0), width - 1);
    tile[ty][tx] = in[(size_t)gy * width + gx];
  }
  __syncthreads();
  const int x = x0 + threadIdx.x;
  if (x >= width) return;
#pragma unroll
  for (int q = 0; q < RY; q++) {
    const int ly = threadIdx.y + q * BY, y = y0 + ly;
    if (y >= height) break;
    float s = 0.0f;
#pragma unroll
    for (int dy = -RAD; dy <= RAD; dy++)
#pragma unroll
      for (int dx = -RAD; dx <= RAD; dx++) s += tile[ly + RAD + dy][threadIdx.x + RAD + dx];
    out[(size_t)y * width + x] = s * (1.0f / 49.0f);
  }
}

extern "C" void box_blur(const float *in, float *out, int width, int height) {
  if (width <= 0 || height <= 0) return;
  dim3 block(BX, BY);
  dim3 grid((width + BX - 1) / BX, (height + TILE_H - 1) / TILE_H);
  box_blur_tile<<<grid, block>>>(in, out, width, height);
}
