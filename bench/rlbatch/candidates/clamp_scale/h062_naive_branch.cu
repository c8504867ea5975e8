// strategy: naive - one thread per element, if/else-if branch on the data, 256 threads per block
#include <cuda_runtime.h>

__global__ void clamp_scale_kernel(const float *x, float *y, float lo, float hi, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    if (v < lo)
      v = lo;
    else if (v > hi)
      v = hi;
    y[i] = scale * v;
  }
}

extern "C" void clamp_scale(const float *x, float *y, float lo, float hi, float scale, int n) {
  if (n <= 0) return;
  const int threads = 256;
  clamp_scale_kernel<<<(n + threads - 1) / threads, threads>>>(x, y, lo, hi, scale, n);
}

// rlbatch: copy 62
__device__ int rlbatch_tag_62 = 62;
