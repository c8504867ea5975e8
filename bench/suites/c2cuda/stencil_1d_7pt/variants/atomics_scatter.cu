// strategy: deliberately poor (atomics-heavy) - scatter formulation: zero y, then each input element atomicAdd-s its weighted value into every output that reads it (7 atomics per element, more at the clamped edges)
#include <cuda_runtime.h>

__global__ void stencil_scatter(const float *x, const float *w, float *y, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float v = x[j];
  for (int k = 0; k < 7; k++) {
    // Outputs i whose tap k reads x[j], i.e. clamp(i + k - 3) == j.
    int lo = j + 3 - k, hi = j + 3 - k;
    if (j == 0) lo = 0;           // taps left of the array read x[0]
    if (j == n - 1) hi = n - 1;   // taps right of the array read x[n-1]
    if (lo < 0) lo = 0;
    if (hi > n - 1) hi = n - 1;
    for (int i = lo; i <= hi; i++) atomicAdd(&y[i], w[k] * v);
  }
}

extern "C" void stencil_1d_7pt(const float *x, const float *w, float *y, int n) {
  if (n <= 0) return;
  cudaMemsetAsync(y, 0, (size_t)n * sizeof(float), 0);
  const int threads = 256;
  stencil_scatter<<<(n + threads - 1) / threads, threads>>>(x, w, y, n);
}
