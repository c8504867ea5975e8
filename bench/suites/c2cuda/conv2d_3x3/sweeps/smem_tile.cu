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

__global__ void __launch_bounds__(BX * BY) conv3x3_tile(const float *__restrict__ in, const float *__restrict__ k, float *__restrict__ out, int h, int w) {
  __shared__ float tile[TILE_H + 2 * HALO][TILE_W + PAD];
  const int x0 = blockIdx.x * BX, y0 = blockIdx.y * TILE_H;
  const int tid = threadIdx.y * BX + threadIdx.x;
  for (int i = tid; i < (TILE_H + 2 * HALO) * TILE_W; i += BX * BY) {
    int ty = i / TILE_W, tx = i % TILE_W;
    int gy = y0 + ty - HALO, gx = x0 + tx - HALO;
    bool inside = gy >= 0 && gy < h && gx >= 0 && gx < w;  // zero padding
    tile[ty][tx] = inside ? in[(size_t)gy * w + gx] : 0.0f;
  }
  __syncthreads();
  float wk[9];  // the 3x3 weights in registers
#pragma unroll
  for (int j = 0; j < 9; j++) wk[j] = k[j];
  const int x = x0 + threadIdx.x;
  if (x >= w) return;
#pragma unroll
  for (int q = 0; q < RY; q++) {
    const int ly = threadIdx.y + q * BY, y = y0 + ly;
    if (y >= h) break;
    float acc = 0.0f;
#pragma unroll
    for (int dy = -HALO; dy <= HALO; dy++)
#pragma unroll
      for (int dx = -HALO; dx <= HALO; dx++) acc += wk[(dy + 1) * 3 + dx + 1] * tile[ly + HALO + dy][threadIdx.x + HALO + dx];
    out[(size_t)y * w + x] = acc;
  }
}

extern "C" void conv2d_3x3(const float *in, const float *k, float *out, int h, int w) {
  if (h <= 0 || w <= 0) return;
  dim3 block(BX, BY);
  dim3 grid((w + BX - 1) / BX, (h + TILE_H - 1) / TILE_H);
  conv3x3_tile<<<grid, block>>>(in, k, out, h, w);
}
