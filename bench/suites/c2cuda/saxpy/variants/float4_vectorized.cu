// strategy: vectorized loads - float4 loads/stores with __restrict__, scalar tail for n % 4, scalar path when unaligned
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void saxpy_vec4(const float4 *__restrict__ x4, float4 *__restrict__ y4, int n4,
                           const float *__restrict__ x, float *__restrict__ y, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 a = x4[i];
    float4 b = y4[i];
    b.x = alpha * a.x + b.x;
    b.y = alpha * a.y + b.y;
    b.z = alpha * a.z + b.z;
    b.w = alpha * a.w + b.w;
    y4[i] = b;
  }
  int t = 4 * n4 + i;  // n % 4 leftover elements
  if (i < 4 && t < n) y[t] = alpha * x[t] + y[t];
}

__global__ void saxpy_scalar(const float *__restrict__ x, float *__restrict__ y, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(const float *x, float *y, float alpha, int n) {
  if (n <= 0) return;
  const int threads = 256;
  if (((uintptr_t)x | (uintptr_t)y) % 16 != 0) {
    saxpy_scalar<<<(n + threads - 1) / threads, threads>>>(x, y, alpha, n);
    return;
  }
  int n4 = n / 4;
  int work = n4 > 4 ? n4 : 4;
  saxpy_vec4<<<(work + threads - 1) / threads, threads>>>((const float4 *)x, (float4 *)y, n4, x, y, alpha, n);
}
