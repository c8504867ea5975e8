// strategy: deliberately poor (grid smaller than the SM count) - one block of 1024 threads streams both inputs (Kahan-compensated per thread), then a shared-memory tree
#include <cuda_runtime.h>

#define THREADS 1024

__global__ void dot_one_block(const float *a, const float *b, float *out, int n) {
  __shared__ float s[THREADS];
  // Long serial chains per thread: compensate so accuracy matches a tree.
  float acc = 0.0f, comp = 0.0f;
  for (int i = threadIdx.x; i < n; i += THREADS) {
    float y = a[i] * b[i] - comp;
    float t = acc + y;
    comp = (t - acc) - y;
    acc = t;
  }
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[0] = s[0];
}

extern "C" void dot_product(const float *a, const float *b, float *out, int n) {
  if (n <= 0) return;
  dot_one_block<<<1, THREADS>>>(a, b, out, n);
}
