// strategy: naive - one thread per pixel reads its nine clamped neighbours byte by byte from global memory
#include <cuda_runtime.h>

__global__ void box_naive(const unsigned char *in, unsigned char *out, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  int s = 0;
  for (int dy = -1; dy <= 1; dy++) {
    int yy = min(max(y + dy, 0), H - 1);
    for (int dx = -1; dx <= 1; dx++) s += in[(long long)yy * W + min(max(x + dx, 0), W - 1)];
  }
  out[(long long)y * W + x] = (unsigned char)((s + 4) / 9);
}

extern "C" void box3_u8(const unsigned char *in, unsigned char *out, int H, int W) {
  if (H <= 0 || W <= 0) return;
  dim3 block(32, 8), grid((W + 31) / 32, (H + 7) / 8);
  box_naive<<<grid, block>>>(in, out, H, W);
}
