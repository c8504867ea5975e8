// strategy: register blocking + vectorized loads - float4 global loads into a shared tile, each thread keeps a 12-value window in registers (3 float4 shared reads) and produces 4 outputs with one float4 store
#include <cuda_runtime.h>
#include <stdint.h>

#define THREADS 256
#define OUT_PER_THREAD 4
#define TILE (THREADS * OUT_PER_THREAD)
#define R 3
#define SLEN (TILE + 8)  // TILE + 2R halo, rounded up to whole float4s

__device__ __forceinline__ float xc(const float *x, long long j, int n) {
  j = j < 0 ? 0 : (j >= n ? n - 1 : j);
  return x[j];
}

__global__ void __launch_bounds__(THREADS) stencil_reg4(const float *__restrict__ x, const float *__restrict__ w,
                                                        float *__restrict__ y, int n, int aligned) {
  // s[j] holds x[clamp(base - R + j)].
  __shared__ __align__(16) float s[SLEN];
  long long base = (long long)blockIdx.x * TILE;
  int t = threadIdx.x;
  if (aligned && base + TILE <= n) {
    // Interior tile: the core TILE elements arrive as float4.
    float4 q = ((const float4 *)(x + base))[t];
    s[R + 4 * t] = q.x;
    s[R + 4 * t + 1] = q.y;
    s[R + 4 * t + 2] = q.z;
    s[R + 4 * t + 3] = q.w;
    if (t < R) s[t] = xc(x, base - R + t, n);
    if (t < SLEN - TILE - R) s[TILE + R + t] = xc(x, base + TILE + t, n);
  } else {
    for (int j = t; j < SLEN; j += THREADS) s[j] = xc(x, base - R + j, n);
  }
  float wk[7];
  for (int k = 0; k < 7; k++) wk[k] = w[k];
  __syncthreads();
  const float4 *s4 = (const float4 *)s;
  float4 a = s4[t], b = s4[t + 1], c = s4[t + 2];
  float win[12] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w};
  float out[4];
  for (int q = 0; q < 4; q++) {
    float acc = 0.0f;
    for (int k = 0; k < 7; k++) acc += wk[k] * win[q + k];
    out[q] = acc;
  }
  long long o = base + 4LL * t;
  if (aligned && o + 3 < n) {
    *(float4 *)(y + o) = make_float4(out[0], out[1], out[2], out[3]);
  } else {
    for (int q = 0; q < 4; q++)
      if (o + q < n) y[o + q] = out[q];
  }
}

extern "C" void stencil_1d_7pt(const float *x, const float *w, float *y, int n) {
  if (n <= 0) return;
  int aligned = (((uintptr_t)x | (uintptr_t)y) % 16) == 0;
  stencil_reg4<<<(n + TILE - 1) / TILE, THREADS>>>(x, w, y, n, aligned);
}
