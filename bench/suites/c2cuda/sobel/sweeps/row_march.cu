// strategy: register sliding window - BX x BY threads, each owning CX columns (BX apart) and marching down RY consecutive rows, the 3x3 neighbourhood carried in registers so each step loads only the new row's three values per column
// sweep: BX = 32, 64, 128, 256
// sweep: BY = 1, 2, 4, 8
// sweep: RY = 1, 4, 16, 64
// sweep: CX = 1, 2
// sweep-require: BX * BY <= 512
// sweep-require: BX * BY >= 64
#include <cuda_runtime.h>
#include <math.h>

__global__ void __launch_bounds__(BX * BY) sobel_march(const float *__restrict__ src, float *__restrict__ dst, int w, int h) {
  const int ystart = (blockIdx.y * BY + threadIdx.y) * RY;
  if (ystart >= h) return;
  const int yend = min(ystart + RY, h);
#pragma unroll
  for (int j = 0; j < CX; j++) {
    const int x = blockIdx.x * BX * CX + j * BX + threadIdx.x;
    if (x >= w) break;
    const int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
    const float *p = src + (size_t)max(ystart - 1, 0) * w;
    float ul = p[xl], uc = p[x], ur = p[xr];  // row above
    p = src + (size_t)ystart * w;
    float ml = p[xl], mc = p[x], mr = p[xr];  // current row
    for (int y = ystart; y < yend; y++) {
      p = src + (size_t)min(y + 1, h - 1) * w;
      float dl = p[xl], dc = p[x], dr = p[xr];  // row below
      float gx = (ur + 2.0f * mr + dr) - (ul + 2.0f * ml + dl);
      float gy = (dl + 2.0f * dc + dr) - (ul + 2.0f * uc + ur);
      dst[(size_t)y * w + x] = sqrtf(gx * gx + gy * gy);
      ul = ml; uc = mc; ur = mr;
      ml = dl; mc = dc; mr = dr;
    }
  }
}

extern "C" void sobel(const float *in, float *out, int width, int height) {
  if (width <= 0 || height <= 0) return;
  dim3 block(BX, BY);
  dim3 grid((width + BX * CX - 1) / (BX * CX), (height + BY * RY - 1) / (BY * RY));
  sobel_march<<<grid, block>>>(in, out, width, height);
}
