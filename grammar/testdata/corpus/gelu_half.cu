#include <cuda_fp16.h>
#include <cuda_runtime.h>

// tanh approximation of GELU on half2 pairs; the tail element is done alone.
__device__ __forceinline__ float gelu_f(float x) {
  const float kAlpha = 0.7978845608028654f;  // sqrt(2/pi)
  const float kBeta = 0.044715f;
  return 0.5f * x * (1.0f + tanhf(kAlpha * (x + kBeta * x * x * x)));
}

__global__ void gelu_half2(const __half2 *__restrict__ in, __half2 *__restrict__ out, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2) return;
  float2 v = __half22float2(in[i]);
  v.x = gelu_f(v.x);
  v.y = gelu_f(v.y);
  out[i] = __floats2half2_rn(v.x, v.y);
}

__global__ void gelu_tail(const __half *in, __half *out, int n) {
  if (threadIdx.x == 0 && (n & 1)) {
    out[n - 1] = __float2half(gelu_f(__half2float(in[n - 1])));
  }
}

void gelu(const __half *in, __half *out, int n, cudaStream_t s) {
  int n2 = n / 2;
  int threads = 256;
  if (n2 > 0) {
    gelu_half2<<<(n2 + threads - 1) / threads, threads, 0, s>>>(
        reinterpret_cast<const __half2 *>(in), reinterpret_cast<__half2 *>(out), n2);
  }
  gelu_tail<<<1, 32, 0, s>>>(in, out, n);
}
