#include <cuda_runtime.h>
#include <math_constants.h>

// 8x8 block DCT-II (JPEG style) with the cosine table in constant memory;
// one 8x8 thread block per image block, separable rows then columns.
__constant__ float c_dct[8][8];

void init_dct_table() {
  float t[8][8];
  for (int u = 0; u < 8; ++u)
    for (int x = 0; x < 8; ++x) t[u][x] = (u == 0 ? sqrtf(0.125f) : 0.5f) * cosf((2 * x + 1) * u * 3.14159265f / 16.f);
  cudaMemcpyToSymbol(c_dct, t, sizeof(t));
}

__global__ void dct8x8(const float *__restrict__ img, float *__restrict__ coef, int width) {
  __shared__ float blk[8][8];
  __shared__ float tmp[8][8];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * 8 + tx, y = blockIdx.y * 8 + ty;
  blk[ty][tx] = img[y * width + x] - 128.f;
  __syncthreads();
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += c_dct[tx][k] * blk[ty][k];
  tmp[ty][tx] = s;
  __syncthreads();
  s = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += c_dct[ty][k] * tmp[k][tx];
  coef[y * width + x] = s;
}

void dct(const float *img, float *coef, int w, int h) { dct8x8<<<dim3(w / 8, h / 8), dim3(8, 8)>>>(img, coef, w); }
