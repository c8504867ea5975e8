#include <cstdint>
#include <cuda_runtime.h>

// Quantize float activations to uint8 with a per-tensor scale and zero point.
__global__ void quantize_u8(const float *__restrict__ in, uint8_t *__restrict__ out, float inv_scale,
                            int zero_point, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  int q = __float2int_rn(in[i] * inv_scale) + zero_point;
  q = min(max(q, 0), 255);
  out[i] = static_cast<uint8_t>(q);
}

__global__ void dequantize_u8(const uint8_t *__restrict__ in, float *__restrict__ out, float scale,
                              int zero_point, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = (static_cast<int>(in[i]) - zero_point) * scale;
}
