// strategy: deliberately poor (double-precision math) - promotes every element to double and calls the double tanh, one thread per element
#include <cuda_runtime.h>

__global__ void gelu_fp64(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i];
    double u = 0.7978845608028654 * (v + 0.044715 * v * v * v);
    y[i] = (float)(0.5 * v * (1.0 + tanh(u)));
  }
}

static void gelu_rlbatch_impl(const float *x, float *y, int n) {
  if (n <= 0) return;
  const int threads = 256;
  gelu_fp64<<<(n + threads - 1) / threads, threads>>>(x, y, n);
}

extern "C" void gelu(const float *x, float *y, int n) {
    gelu_rlbatch_impl(x, y, n);
}

// rlbatch: copy 57
__device__ int rlbatch_tag_57 = 57;
