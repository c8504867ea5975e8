// strategy: vectorized loads - two elements per thread through __nv_bfloat162, fast __expf and __frcp_rn, a scalar tail for odd n
#include <cuda_bf16.h>

__device__ __forceinline__ float silu_mul1(float g, float u) { return g * __frcp_rn(1.0f + __expf(-g)) * u; }

__global__ void silu_mul_pairs(const __nv_bfloat162 *g, const __nv_bfloat162 *u, __nv_bfloat162 *out, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  float2 gv = __bfloat1622float2(g[i]), uv = __bfloat1622float2(u[i]);
  out[i] = __floats2bfloat162_rn(silu_mul1(gv.x, uv.x), silu_mul1(gv.y, uv.y));
}

__global__ void silu_mul_tail(const __nv_bfloat16 *g, const __nv_bfloat16 *u, __nv_bfloat16 *out, int i) {
  out[i] = __float2bfloat16_rn(silu_mul1(__bfloat162float(g[i]), __bfloat162float(u[i])));
}

extern "C" void silu_mul_bf16(const __nv_bfloat16 *g, const __nv_bfloat16 *u, __nv_bfloat16 *out, int n) {
  if (n <= 0) return;
  int pairs = n / 2;
  if (pairs > 0)
    silu_mul_pairs<<<(pairs + 255) / 256, 256>>>(reinterpret_cast<const __nv_bfloat162 *>(g),
                                                 reinterpret_cast<const __nv_bfloat162 *>(u),
                                                 reinterpret_cast<__nv_bfloat162 *>(out), pairs);
  if (n & 1) silu_mul_tail<<<1, 1>>>(g, u, out, n - 1);
}
