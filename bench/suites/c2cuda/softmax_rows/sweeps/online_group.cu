// strategy: online softmax, thread group per row - G threads per row, R rows per block, one pass keeps a running (max, rescaled sum) pair per thread over VEC-float loads, pairs merged across the group, then one write pass
// sweep: G = 32, 64, 128, 256, 512, 1024
// sweep: R = 1, 2, 4, 8, 16
// sweep: VEC = 1, 2, 4
// sweep-require: G * R <= 1024
// sweep-require: G * R >= 64
#include <cuda_runtime.h>
#include <math.h>

#define WARPS_PER_ROW (G / 32)

struct __align__(4 * VEC) chunk {
  float f[VEC];
};

// (m, s) stands for s * exp(m - true max); merging rescales the smaller side.
__device__ __forceinline__ void merge(float &m, float &s, float m2, float s2) {
  float hi = fmaxf(m, m2);
  if (hi == -INFINITY) return;
  s = s * expf(m - hi) + s2 * expf(m2 - hi);
  m = hi;
}

__device__ __forceinline__ void push(float &m, float &s, float v) {
  if (v > m) {
    s = s * expf(m - v) + 1.0f;
    m = v;
  } else {
    s += expf(v - m);
  }
}

__global__ void __launch_bounds__(G * R) softmax_online(const float *__restrict__ x, float *__restrict__ y, int rows,
                                                        int cols) {
  __shared__ float shm[R][WARPS_PER_ROW], shs[R][WARPS_PER_ROW];
  const int row_in_block = threadIdx.x / G, t = threadIdx.x % G;
  const long long r = (long long)blockIdx.x * R + row_in_block;
  const bool live = r < rows;
  const float *src = x + (live ? r : 0) * (long long)cols;
  float *dst = y + (live ? r : 0) * (long long)cols;
  const int whole = (cols % VEC == 0) ? cols / VEC : 0;
  float m = -INFINITY, s = 0.0f;
  if (live) {
    for (int c = t; c < whole; c += G) {
      chunk v = ((const chunk *)src)[c];
#pragma unroll
      for (int e = 0; e < VEC; e++) push(m, s, v.f[e]);
    }
    for (int c = whole * VEC + t; c < cols; c += G) push(m, s, src[c]);
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    float m2 = __shfl_xor_sync(0xffffffffu, m, off), s2 = __shfl_xor_sync(0xffffffffu, s, off);
    merge(m, s, m2, s2);
  }
  if (WARPS_PER_ROW > 1) {
    if ((threadIdx.x & 31) == 0) {
      shm[row_in_block][t / 32] = m;
      shs[row_in_block][t / 32] = s;
    }
    __syncthreads();
    m = shm[row_in_block][0];
    s = shs[row_in_block][0];
    for (int w = 1; w < WARPS_PER_ROW; w++) merge(m, s, shm[row_in_block][w], shs[row_in_block][w]);
  }
  if (!live) return;
  const float inv = 1.0f / s;
  for (int c = t; c < whole; c += G) {
    chunk v = ((const chunk *)src)[c];
#pragma unroll
    for (int e = 0; e < VEC; e++) v.f[e] = expf(v.f[e] - m) * inv;
    ((chunk *)dst)[c] = v;
  }
  for (int c = whole * VEC + t; c < cols; c += G) dst[c] = expf(src[c] - m) * inv;
}

extern "C" void softmax_rows(const float *x, float *y, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  softmax_online<<<(rows + R - 1) / R, G * R>>>(x, y, rows, cols);
}
