// strategy: naive - one thread per output reads its 7 clamped neighbours and the weights straight from global memory
#include <cuda_runtime.h>

__global__ void stencil_naive(const float *x, const float *w, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < 7; k++) {
    int j = i + k - 3;
    j = j < 0 ? 0 : (j >= n ? n - 1 : j);
    acc += w[k] * x[j];
  }
  y[i] = acc;
}

extern "C" void stencil_1d_7pt(const float *x, const float *w, float *y, int n) {
  if (n <= 0) return;
  const int threads = 256;
  stencil_naive<<<(n + threads - 1) / threads, threads>>>(x, w, y, n);
}
