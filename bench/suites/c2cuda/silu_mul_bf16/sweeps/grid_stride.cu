// strategy: grid-stride loop - BLOCK-thread blocks, UNROLL independent elements per thread per iteration, a grid of 4 blocks per SM-sized wave
// sweep: BLOCK = 128, 256, 512, 1024
// sweep: UNROLL = 1, 2, 4
#include <cuda_bf16.h>

__global__ void silu_mul_gs(const __nv_bfloat16 *g, const __nv_bfloat16 *u, __nv_bfloat16 *out, int n) {
  long long stride = (long long)gridDim.x * BLOCK * UNROLL;
  for (long long base = (long long)blockIdx.x * BLOCK * UNROLL + threadIdx.x; base < n; base += stride) {
#pragma unroll
    for (int j = 0; j < UNROLL; j++) {
      long long i = base + (long long)j * BLOCK;
      if (i < n) {
        float gv = __bfloat162float(g[i]);
        out[i] = __float2bfloat16_rn(gv / (1.0f + __expf(-gv)) * __bfloat162float(u[i]));
      }
    }
  }
}

extern "C" void silu_mul_bf16(const __nv_bfloat16 *g, const __nv_bfloat16 *u, __nv_bfloat16 *out, int n) {
  if (n <= 0) return;
  long long need = ((long long)n + BLOCK * UNROLL - 1) / (BLOCK * UNROLL);
  int blocks = need < 132 * 4 * (1024 / BLOCK) ? (int)need : 132 * 4 * (1024 / BLOCK);
  silu_mul_gs<<<blocks, BLOCK>>>(g, u, out, n);
}
