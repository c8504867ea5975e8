// strategy: shared-memory tiling - a TX x TY block stages its (TX+2) x (TY+2) byte tile (halo clamped at the edges) in shared memory, then sums the nine neighbours from there
// sweep: TX = 32, 64
// sweep: TY = 4, 8, 16
// sweep-require: TX * TY <= 1024
#include <cuda_runtime.h>

__global__ void box_smem(const unsigned char *in, unsigned char *out, int H, int W) {
  __shared__ unsigned char tile[TY + 2][TX + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
  for (int i = ty * TX + tx; i < (TX + 2) * (TY + 2); i += TX * TY) {
    int r = i / (TX + 2), q = i % (TX + 2);
    int yy = min(max(y0 + r - 1, 0), H - 1), xx = min(max(x0 + q - 1, 0), W - 1);
    tile[r][q] = in[(long long)yy * W + xx];
  }
  __syncthreads();
  int x = x0 + tx, y = y0 + ty;
  if (x >= W || y >= H) return;
  int s = 0;
#pragma unroll
  for (int dy = 0; dy < 3; dy++)
#pragma unroll
    for (int dx = 0; dx < 3; dx++) s += tile[ty + dy][tx + dx];
  out[(long long)y * W + x] = (unsigned char)((s + 4) / 9);
}

extern "C" void box3_u8(const unsigned char *in, unsigned char *out, int H, int W) {
  if (H <= 0 || W <= 0) return;
  dim3 block(TX, TY), grid((W + TX - 1) / TX, (H + TY - 1) / TY);
  box_smem<<<grid, block>>>(in, out, H, W);
}
