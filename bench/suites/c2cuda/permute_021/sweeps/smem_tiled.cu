// strategy: shared-memory tiling - 32 x 32 tiles of each matrix staged through shared memory (PAD extra column against bank conflicts) by 32 x ROWS threads, so reads and writes are both coalesced
// sweep: ROWS = 2, 4, 8, 16, 32
// sweep: PAD = 0, 1
#include <cuda_runtime.h>

#define TILE 32

__global__ void perm_tiled(const float *in, float *out, int B, int R, int C) {
  __shared__ float t[TILE][TILE + PAD];
  int b = blockIdx.z, c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
  const float *src = in + (long long)b * R * C;
  float *dst = out + (long long)b * R * C;
  for (int j = threadIdx.y; j < TILE; j += ROWS) {
    int r = r0 + j, c = c0 + threadIdx.x;
    if (r < R && c < C) t[j][threadIdx.x] = src[(long long)r * C + c];
  }
  __syncthreads();
  for (int j = threadIdx.y; j < TILE; j += ROWS) {
    int c = c0 + j, r = r0 + threadIdx.x;
    if (r < R && c < C) dst[(long long)c * R + r] = t[threadIdx.x][j];
  }
}

extern "C" void permute_021(const float *in, float *out, int B, int R, int C) {
  if (B <= 0 || R <= 0 || C <= 0) return;
  dim3 block(TILE, ROWS), grid((C + TILE - 1) / TILE, (R + TILE - 1) / TILE, B);
  perm_tiled<<<grid, block>>>(in, out, B, R, C);
}
