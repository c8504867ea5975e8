// strategy: register blocking / ILP - grid-stride loop over 4 waves per SM, 4 independent elements per iteration
#include <cuda_runtime.h>

__global__ void saxpy_ilp4(const float *__restrict__ x, float *__restrict__ y, float alpha, int n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    float x0 = x[i], x1 = x[i + stride], x2 = x[i + 2 * stride], x3 = x[i + 3 * stride];
    float y0 = y[i], y1 = y[i + stride], y2 = y[i + 2 * stride], y3 = y[i + 3 * stride];
    y[i] = alpha * x0 + y0;
    y[i + stride] = alpha * x1 + y1;
    y[i + 2 * stride] = alpha * x2 + y2;
    y[i + 3 * stride] = alpha * x3 + y3;
  }
  for (; i < n; i += stride) y[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(const float *x, float *y, float alpha, int n) {
  if (n <= 0) return;
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  const int threads = 256;
  long long need = ((long long)n + threads - 1) / threads;
  long long blocks = (long long)sms * 8;
  if (blocks > need) blocks = need;
  saxpy_ilp4<<<(int)blocks, threads>>>(x, y, alpha, n);
}
