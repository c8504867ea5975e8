// strategy: naive - one thread per element, converts through float with CUDA's intrinsics
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void halfmix_kernel(const __half *x, const __nv_bfloat16 *y, const double *w, __half *h, __nv_bfloat16 *b,
                               double *d, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xf = __half2float(x[i]), yf = __bfloat162float(y[i]);
  h[i] = __float2half_rn(alpha * xf + yf);
  b[i] = __float2bfloat16_rn(xf * yf);
  d[i] = w[i] * (double)alpha + (double)xf;
}

extern "C" void halfmix(const __half *x, const __nv_bfloat16 *y, const double *w, __half *h, __nv_bfloat16 *b,
                        double *d, float alpha, int n) {
  if (n <= 0) return;
  halfmix_kernel<<<(n + 255) / 256, 256>>>(x, y, w, h, b, d, alpha, n);
}
