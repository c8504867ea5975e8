// strategy: shared-memory tiling - a TX x TY block loads its (TX+2) x (TY+2) input tile with the halo into shared memory once; each thread then reads its nine taps from shared memory
// sweep: TX = 16, 32, 64
// sweep: TY = 4, 8, 16
// sweep-require: TX * TY <= 1024
#include <cuda_runtime.h>

__global__ void dw_smem(const float *in, const float *w, float *out, int C, int H, int W) {
  __shared__ float tile[TY + 2][TX + 2];
  int tx = threadIdx.x, ty = threadIdx.y, c = blockIdx.z;
  int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY;
  const float *p = in + (long long)c * H * W;
  for (int i = ty * TX + tx; i < (TX + 2) * (TY + 2); i += TX * TY) {
    int r = i / (TX + 2), q = i % (TX + 2), yy = y0 + r - 1, xx = x0 + q - 1;
    tile[r][q] = (yy >= 0 && yy < H && xx >= 0 && xx < W) ? p[(long long)yy * W + xx] : 0.0f;
  }
  __syncthreads();
  int x = x0 + tx, y = y0 + ty;
  if (x >= W || y >= H) return;
  float acc = 0.0f;
#pragma unroll
  for (int dy = 0; dy < 3; dy++)
#pragma unroll
    for (int dx = 0; dx < 3; dx++) acc += w[c * 9 + dy * 3 + dx] * tile[ty + dy][tx + dx];
  out[((long long)c * H + y) * W + x] = acc;
}

extern "C" void depthwise_conv2d(const float *in, const float *w, float *out, int C, int H, int W) {
  if (C <= 0 || H <= 0 || W <= 0) return;
  dim3 block(TX, TY), grid((W + TX - 1) / TX, (H + TY - 1) / TY, C);
  dw_smem<<<grid, block>>>(in, w, out, C, H, W);
}
