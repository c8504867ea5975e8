#include <cuda_fp16.h>

// Half-precision AXPY and dot product using packed half2 arithmetic.
__global__ void haxpy(int n, __half a, const __half *x, __half *y) {
  int start = threadIdx.x + blockDim.x * blockIdx.x;
  int stride = blockDim.x * gridDim.x;
  int n2 = n / 2;
  __half2 *x2 = (__half2 *)x, *y2 = (__half2 *)y;
  __half2 a2 = __half2half2(a);
  for (int i = start; i < n2; i += stride) y2[i] = __hfma2(a2, x2[i], y2[i]);
  if (start == 0 && (n % 2)) y[n - 1] = __hfma(a, x[n - 1], y[n - 1]);
}

__global__ void hdot(int n, const __half2 *x, const __half2 *y, float *result) {
  __shared__ float partial[256];
  float acc = 0.f;
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n / 2; i += blockDim.x * gridDim.x) {
    __half2 p = __hmul2(x[i], y[i]);
    float2 f = __half22float2(p);
    acc += f.x + f.y;
  }
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

__device__ __half2 hrelu2(__half2 v) {
  const __half2 zero = __float2half2_rn(0.f);
  return __hmax2(v, zero);
}
