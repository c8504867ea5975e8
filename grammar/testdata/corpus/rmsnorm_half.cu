#include <cuda_fp16.h>

namespace kernels {

template <typename T>
__device__ __forceinline__ float to_float(T v);
template <>
__device__ __forceinline__ float to_float<half>(half v) { return __half2float(v); }
template <>
__device__ __forceinline__ float to_float<float>(float v) { return v; }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ half from_float<half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }

// RMSNorm (LLaMA style): y = x / sqrt(mean(x^2) + eps) * w.
template <typename T, int THREADS>
__global__ void rms_norm_kernel(T *__restrict__ out, const T *__restrict__ input, const T *__restrict__ weight,
                                const float epsilon, const int hidden_size) {
  __shared__ float s_variance;
  __shared__ float partial[THREADS / 32];
  float variance = 0.0f;
  for (int idx = threadIdx.x; idx < hidden_size; idx += THREADS) {
    const float x = to_float(input[blockIdx.x * hidden_size + idx]);
    variance += x * x;
  }
  for (int mask = 16; mask > 0; mask >>= 1) variance += __shfl_xor_sync(0xffffffff, variance, mask, 32);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = variance;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.f;
    for (int w = 0; w < THREADS / 32; ++w) total += partial[w];
    s_variance = rsqrtf(total / hidden_size + epsilon);
  }
  __syncthreads();
  for (int idx = threadIdx.x; idx < hidden_size; idx += THREADS) {
    float x = to_float(input[blockIdx.x * hidden_size + idx]);
    out[blockIdx.x * hidden_size + idx] = from_float<T>(x * s_variance * to_float(weight[idx]));
  }
}

}  // namespace kernels

void rms_norm(half *out, const half *input, const half *weight, float eps, int num_tokens, int hidden) {
  kernels::rms_norm_kernel<half, 256><<<num_tokens, 256>>>(out, input, weight, eps, hidden);
}
