#include <cuda_runtime.h>
#include <cstdint>

// Escape-time Mandelbrot with a smooth color index; heavy warp divergence near
// the set boundary, which the divergence pass should flag.
__device__ uint32_t color(float t) {
  uint8_t r = (uint8_t)(9 * (1 - t) * t * t * t * 255);
  uint8_t g = (uint8_t)(15 * (1 - t) * (1 - t) * t * t * 255);
  uint8_t b = (uint8_t)(8.5f * (1 - t) * (1 - t) * (1 - t) * t * 255);
  return 0xff000000u | (b << 16) | (g << 8) | r;
}

__global__ void mandelbrot(uint32_t *img, int w, int h, float cx, float cy, float scale, int max_iter) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  float x0 = cx + (px - w / 2) * scale;
  float y0 = cy + (py - h / 2) * scale;
  float x = 0.f, y = 0.f;
  int it = 0;
  while (x * x + y * y <= 4.f && it < max_iter) {
    float xt = x * x - y * y + x0;
    y = 2.f * x * y + y0;
    x = xt;
    ++it;
  }
  img[py * w + px] = it == max_iter ? 0xff000000u : color((float)it / max_iter);
}

void render(uint32_t *d_img, int w, int h) {
  dim3 b(16, 16);
  dim3 g((w + b.x - 1) / b.x, (h + b.y - 1) / b.y);
  mandelbrot<<<g, b>>>(d_img, w, h, -0.5f, 0.f, 3.f / w, 1024);
}
