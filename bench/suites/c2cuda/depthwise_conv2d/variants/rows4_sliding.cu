// strategy: register blocking - each thread computes 4 vertically adjacent outputs, sliding a 3-row window of taps through registers so each input row is loaded once per thread; weights in registers
#include <cuda_runtime.h>

#define RY 4

__global__ void dw_rows(const float *in, const float *w, float *out, int C, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y0 = (blockIdx.y * blockDim.y + threadIdx.y) * RY, c = blockIdx.z;
  if (x >= W || y0 >= H) return;
  const float *p = in + (long long)c * H * W;
  float wr[9];
#pragma unroll
  for (int i = 0; i < 9; i++) wr[i] = w[c * 9 + i];
  float row[RY + 2][3];
#pragma unroll
  for (int r = 0; r < RY + 2; r++) {
    int yy = y0 + r - 1;
#pragma unroll
    for (int dx = 0; dx < 3; dx++) {
      int xx = x + dx - 1;
      row[r][dx] = (yy >= 0 && yy < H && xx >= 0 && xx < W) ? p[(long long)yy * W + xx] : 0.0f;
    }
  }
#pragma unroll
  for (int j = 0; j < RY; j++) {
    if (y0 + j >= H) break;
    float acc = 0.0f;
#pragma unroll
    for (int dy = 0; dy < 3; dy++)
#pragma unroll
      for (int dx = 0; dx < 3; dx++) acc += wr[dy * 3 + dx] * row[j + dy][dx];
    out[((long long)c * H + y0 + j) * W + x] = acc;
  }
}

extern "C" void depthwise_conv2d(const float *in, const float *w, float *out, int C, int H, int W) {
  if (C <= 0 || H <= 0 || W <= 0) return;
  int rows = (H + RY - 1) / RY;
  dim3 block(32, 8), grid((W + 31) / 32, (rows + 7) / 8, C);
  dw_rows<<<grid, block>>>(in, w, out, C, H, W);
}
