// strategy: deliberately poor (grid smaller than the SM count) - one block of 1024 threads reads all n elements grid-stride, then a shared-memory tree
#include <cuda_runtime.h>

#define THREADS 1024

__global__ void reduce_one_block(const float *x, float *out, int n) {
  __shared__ float s[THREADS];
  // Each thread sums ~n/1024 values serially; Kahan compensation keeps that
  // long chain's rounding error at the level of a tree's.
  float acc = 0.0f, comp = 0.0f;
  for (int i = threadIdx.x; i < n; i += THREADS) {
    float y = x[i] - comp;
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

extern "C" void sum_reduce(const float *x, float *out, int n) {
  if (n <= 0) return;
  reduce_one_block<<<1, THREADS>>>(x, out, n);
}
