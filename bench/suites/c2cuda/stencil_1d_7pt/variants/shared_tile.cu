// strategy: shared-memory tiling - each 256-thread block stages its tile plus a 3-element halo on each side in shared memory, weights in registers
#include <cuda_runtime.h>

#define THREADS 256
#define R 3

__device__ __forceinline__ float xc(const float *x, long long j, int n) {
  j = j < 0 ? 0 : (j >= n ? n - 1 : j);
  return x[j];
}

__global__ void __launch_bounds__(THREADS) stencil_shared(const float *__restrict__ x, const float *__restrict__ w,
                                                          float *__restrict__ y, int n) {
  __shared__ float s[THREADS + 2 * R];
  long long base = (long long)blockIdx.x * THREADS;
  int t = threadIdx.x;
  s[t + R] = xc(x, base + t, n);
  if (t < R) {
    s[t] = xc(x, base - R + t, n);
    s[THREADS + R + t] = xc(x, base + THREADS + t, n);
  }
  float wk[7];
  for (int k = 0; k < 7; k++) wk[k] = w[k];
  __syncthreads();
  long long i = base + t;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < 7; k++) acc += wk[k] * s[t + k];
    y[i] = acc;
  }
}

extern "C" void stencil_1d_7pt(const float *x, const float *w, float *y, int n) {
  if (n <= 0) return;
  stencil_shared<<<(n + THREADS - 1) / THREADS, THREADS>>>(x, w, y, n);
}
