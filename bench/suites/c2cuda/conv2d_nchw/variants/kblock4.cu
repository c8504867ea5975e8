// strategy: register blocking - each thread computes 4 output channels of one pixel, so every input tap loaded is used 4 times
#include <cuda_runtime.h>

#define KB 4

__global__ void conv_kblock(const float *in, const float *w, float *out, int C, int K, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, k0 = blockIdx.z * KB;
  if (x >= W || y >= H) return;
  float acc[KB] = {};
  for (int c = 0; c < C; c++)
    for (int dy = 0; dy < 3; dy++) {
      int yy = y + dy - 1;
      if (yy < 0 || yy >= H) continue;
      for (int dx = 0; dx < 3; dx++) {
        int xx = x + dx - 1;
        if (xx < 0 || xx >= W) continue;
        float v = in[((long long)c * H + yy) * W + xx];
#pragma unroll
        for (int j = 0; j < KB; j++)
          if (k0 + j < K) acc[j] += w[(((k0 + j) * C + c) * 3 + dy) * 3 + dx] * v;
      }
    }
#pragma unroll
  for (int j = 0; j < KB; j++)
    if (k0 + j < K) out[((long long)(k0 + j) * H + y) * W + x] = acc[j];
}

extern "C" void conv2d_nchw(const float *in, const float *w, float *out, int C, int K, int H, int W) {
  if (K <= 0 || H <= 0 || W <= 0) return;
  dim3 block(32, 8), grid((W + 31) / 32, (H + 7) / 8, (K + KB - 1) / KB);
  conv_kblock<<<grid, block>>>(in, w, out, C, K, H, W);
}
