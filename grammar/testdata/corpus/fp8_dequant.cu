#include <cuda_fp8.h>
#include <cuda_bf16.h>

// Dequantize blockwise-scaled FP8 (E4M3) weights to bf16: one scale per
// 128-element block.
template <int BLOCK>
__global__ void dequant_fp8_e4m3(const __nv_fp8_e4m3 *__restrict__ q, const float *__restrict__ scales,
                                 __nv_bfloat16 *__restrict__ out, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = scales[i / BLOCK];
  out[i] = __float2bfloat16(static_cast<float>(q[i]) * s);
}

template <int BLOCK>
__global__ void quant_fp8_e4m3(const __nv_bfloat16 *__restrict__ x, float *__restrict__ scales,
                               __nv_fp8_e4m3 *__restrict__ q, size_t nblocks) {
  size_t b = blockIdx.x;
  if (b >= nblocks) return;
  __shared__ float amax;
  if (threadIdx.x == 0) amax = 0.f;
  __syncthreads();
  float v = fabsf(__bfloat162float(x[b * BLOCK + threadIdx.x]));
  atomicMax(reinterpret_cast<int *>(&amax), __float_as_int(v));
  __syncthreads();
  float scale = amax > 0.f ? amax / 448.0f : 1.0f;
  q[b * BLOCK + threadIdx.x] = __nv_fp8_e4m3(__bfloat162float(x[b * BLOCK + threadIdx.x]) / scale);
  if (threadIdx.x == 0) scales[b] = scale;
}

void roundtrip(const __nv_bfloat16 *x, float *scales, __nv_fp8_e4m3 *q, __nv_bfloat16 *y, size_t n) {
  constexpr int B = 128;
  quant_fp8_e4m3<B><<<n / B, B>>>(x, scales, q, n / B);
  dequant_fp8_e4m3<B><<<(n + 255) / 256, 256>>>(q, scales, y, n);
}
