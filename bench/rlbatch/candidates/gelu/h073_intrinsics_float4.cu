// strategy: vectorized loads + fast-math intrinsics - float4 in/out, __expf and FMA-friendly polynomial, 512 threads per block
#include <cuda_runtime.h>
#include <stdint.h>

__device__ __forceinline__ float gelu_fast(float v) {
  // u = sqrt(2/pi) * (v + 0.044715 v^3) = v * (k0 + k0*k1 * v^2)
  float v2 = v * v;
  float u = v * fmaf(0.0356774081f, v2, 0.7978845608f);
  // __expf overflows to inf for very negative v; v / inf is the correct -0 limit.
  return v / (1.0f + __expf(-2.0f * u));
}

__global__ void __launch_bounds__(512) gelu_fast_vec4(const float4 *__restrict__ x4, float4 *__restrict__ y4,
                                                      int n4, const float *__restrict__ x,
                                                      float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = __ldg(&x4[i]);
    y4[i] = make_float4(gelu_fast(v.x), gelu_fast(v.y), gelu_fast(v.z), gelu_fast(v.w));
  }
  int t = 4 * n4 + i;
  if (i < 4 && t < n) y[t] = gelu_fast(x[t]);
}

__global__ void gelu_fast_scalar(const float *__restrict__ x, float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = gelu_fast(x[i]);
}

static void gelu_rlbatch_impl(const float *x, float *y, int n) {
  if (n <= 0) return;
  const int threads = 512;
  if (((uintptr_t)x | (uintptr_t)y) % 16 != 0) {
    gelu_fast_scalar<<<(n + threads - 1) / threads, threads>>>(x, y, n);
    return;
  }
  int n4 = n / 4;
  int work = n4 > 4 ? n4 : 4;
  gelu_fast_vec4<<<(work + threads - 1) / threads, threads>>>((const float4 *)x, (float4 *)y, n4, x, y, n);
}

extern "C" void gelu(const float *x, float *y, int n) {
    gelu_rlbatch_impl(x, y, n);
}

// rlbatch: copy 73
__device__ int rlbatch_tag_73 = 73;
