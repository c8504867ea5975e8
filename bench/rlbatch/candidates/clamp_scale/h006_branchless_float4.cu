// strategy: vectorized loads + branchless - float4 in/out, fmaxf/fminf select instead of branches, scalar tail for n % 4
#include <cuda_runtime.h>
#include <stdint.h>

// fminf(fmaxf(v, lo), hi) equals the reference's branch for every non-NaN v when lo <= hi.
// When lo > hi the reference returns hi for v > hi and lo otherwise; keep that order.
__device__ __forceinline__ float clamp_one(float v, float lo, float hi, float scale) {
  float c = (lo <= hi) ? fminf(fmaxf(v, lo), hi) : (v < lo ? lo : (v > hi ? hi : v));
  return scale * c;
}

__global__ void clamp_scale_vec4(const float4 *__restrict__ x4, float4 *__restrict__ y4, int n4,
                                 const float *__restrict__ x, float *__restrict__ y, float lo,
                                 float hi, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = x4[i];
    y4[i] = make_float4(clamp_one(v.x, lo, hi, scale), clamp_one(v.y, lo, hi, scale),
                        clamp_one(v.z, lo, hi, scale), clamp_one(v.w, lo, hi, scale));
  }
  int t = 4 * n4 + i;
  if (i < 4 && t < n) y[t] = clamp_one(x[t], lo, hi, scale);
}

__global__ void clamp_scale_scalar(const float *__restrict__ x, float *__restrict__ y, float lo,
                                   float hi, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = clamp_one(x[i], lo, hi, scale);
}

extern "C" void clamp_scale(const float *x, float *y, float lo, float hi, float scale, int n) {
  if (n <= 0) return;
  const int threads = 256;
  if (((uintptr_t)x | (uintptr_t)y) % 16 != 0) {
    clamp_scale_scalar<<<(n + threads - 1) / threads, threads>>>(x, y, lo, hi, scale, n);
    return;
  }
  int n4 = n / 4;
  int work = n4 > 4 ? n4 : 4;
  clamp_scale_vec4<<<(work + threads - 1) / threads, threads>>>((const float4 *)x, (float4 *)y, n4, x, y, lo,
                                                                hi, scale, n);
}

// rlbatch: copy 6
__device__ int rlbatch_tag_6 = 6;
