// strategy: thread group per row - G threads (G/32 warps) per row, R rows per block, VEC-float loads when rows are VEC-aligned, two-pass mean and variance reduced by __shfl_xor_sync then shared memory across the group's warps
// sweep: G = 32, 64, 128, 256, 512, 1024
// sweep: R = 1, 2, 4, 8, 16
// sweep: VEC = 1, 2, 4
// sweep-require: G * R <= 1024
// sweep-require: G * R >= 64
#include <cuda_runtime.h>

#define GW (G / 32)

typedef struct __align__(4 * VEC) {
  float e[VEC];
} fvec;

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// Sum over the G threads of this thread's group; every thread of the block calls it.
__device__ __forceinline__ float group_sum(float v, float (*sh)[GW]) {
  v = warp_sum(v);
  if (GW == 1) return v;
  int g = threadIdx.x / G, w = (threadIdx.x % G) / 32;
  __syncthreads();  // the previous call's readers are done with sh
  if ((threadIdx.x & 31) == 0) sh[g][w] = v;
  __syncthreads();
  float t = 0.0f;
#pragma unroll
  for (int k = 0; k < GW; k++) t += sh[g][k];
  return t;
}

__global__ void __launch_bounds__(G * R) layernorm_group(const float *__restrict__ x, const float *__restrict__ gamma,
                                                         const float *__restrict__ beta, float *__restrict__ y, int rows,
                                                         int cols) {
  __shared__ float sh[R][GW];
  long long r = (long long)blockIdx.x * R + threadIdx.x / G;
  int t = threadIdx.x % G;
  bool live = r < rows;  // dead groups still join the block's barriers
  const float *xr = x + (live ? r : 0) * (long long)cols;
  float *yr = y + (live ? r : 0) * (long long)cols;
  int nv = (cols % VEC == 0) ? cols / VEC : 0;  // whole vectors per row; rows are aligned only if VEC divides cols
  const fvec *xv = (const fvec *)xr;
  float s = 0.0f;
  if (live) {
    for (int c = t; c < nv; c += G) {
      fvec v = xv[c];
#pragma unroll
      for (int e = 0; e < VEC; e++) s += v.e[e];
    }
    for (int c = nv * VEC + t; c < cols; c += G) s += xr[c];
  }
  float mean = group_sum(s, sh) / cols;
  float q = 0.0f;
  if (live) {
    for (int c = t; c < nv; c += G) {
      fvec v = xv[c];
#pragma unroll
      for (int e = 0; e < VEC; e++) q += (v.e[e] - mean) * (v.e[e] - mean);
    }
    for (int c = nv * VEC + t; c < cols; c += G) q += (xr[c] - mean) * (xr[c] - mean);
  }
  float rstd = rsqrtf(group_sum(q, sh) / cols + 1e-5f);
  if (!live) return;
  for (int c = t; c < nv; c += G) {
    fvec v = xv[c], gv = ((const fvec *)gamma)[c], bv = ((const fvec *)beta)[c];
#pragma unroll
    for (int e = 0; e < VEC; e++) v.e[e] = (v.e[e] - mean) * rstd * gv.e[e] + bv.e[e];
    ((fvec *)yr)[c] = v;
  }
  for (int c = nv * VEC + t; c < cols; c += G) yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
}

extern "C" void layernorm_rows(const float *x, const float *gamma, const float *beta, float *y, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  layernorm_group<<<(rows + R - 1) / R, G * R>>>(x, gamma, beta, y, rows, cols);
}
