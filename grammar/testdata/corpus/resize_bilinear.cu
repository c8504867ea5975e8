#include <cuda_runtime.h>

// Bilinear resize of an HWC float image with align_corners = false
// (the convention of OpenCV and PyTorch's default).
__device__ __forceinline__ float area_pixel_compute_source_index(float scale, int dst_index) {
  float src = scale * (dst_index + 0.5f) - 0.5f;
  return src < 0.f ? 0.f : src;
}

__global__ void resize_bilinear_hwc(const float *__restrict__ src, int in_h, int in_w, float *__restrict__ dst,
                                    int out_h, int out_w, int channels) {
  const int ox = blockIdx.x * blockDim.x + threadIdx.x;
  const int oy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ox >= out_w || oy >= out_h) return;
  const float sy = area_pixel_compute_source_index((float)in_h / out_h, oy);
  const float sx = area_pixel_compute_source_index((float)in_w / out_w, ox);
  const int y0 = (int)sy, x0 = (int)sx;
  const int y1 = y0 < in_h - 1 ? y0 + 1 : y0;
  const int x1 = x0 < in_w - 1 ? x0 + 1 : x0;
  const float ly = sy - y0, lx = sx - x0, hy = 1.f - ly, hx = 1.f - lx;
  for (int c = 0; c < channels; ++c) {
    float v00 = src[(y0 * in_w + x0) * channels + c];
    float v01 = src[(y0 * in_w + x1) * channels + c];
    float v10 = src[(y1 * in_w + x0) * channels + c];
    float v11 = src[(y1 * in_w + x1) * channels + c];
    dst[(oy * out_w + ox) * channels + c] = hy * (hx * v00 + lx * v01) + ly * (hx * v10 + lx * v11);
  }
}

void resize(const float *src, int ih, int iw, float *dst, int oh, int ow, int c, cudaStream_t s) {
  dim3 block(32, 8);
  dim3 grid((ow + 31) / 32, (oh + 7) / 8);
  resize_bilinear_hwc<<<grid, block, 0, s>>>(src, ih, iw, dst, oh, ow, c);
}
