// strategy: naive - one thread per element, expf in float, 256-thread blocks
#include <cuda_bf16.h>

__global__ void silu_mul_naive(const __nv_bfloat16 *g, const __nv_bfloat16 *u, __nv_bfloat16 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float gv = __bfloat162float(g[i]);
  out[i] = __float2bfloat16_rn(gv / (1.0f + expf(-gv)) * __bfloat162float(u[i]));
}

extern "C" void silu_mul_bf16(const __nv_bfloat16 *g, const __nv_bfloat16 *u, __nv_bfloat16 *out, int n) {
  if (n <= 0) return;
  silu_mul_naive<<<(n + 255) / 256, 256>>>(g, u, out, n);
}
