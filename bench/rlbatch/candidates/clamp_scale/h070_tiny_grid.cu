// strategy: deliberately poor (grid smaller than the SM count) - 4 blocks of 1024 threads grid-stride over all n with the data-dependent branch
#include <cuda_runtime.h>

__global__ void clamp_scale_tiny_grid(const float *x, float *y, float lo, float hi, float scale, int n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
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
  clamp_scale_tiny_grid<<<4, 1024>>>(x, y, lo, hi, scale, n);
}

// rlbatch: copy 70
__device__ int rlbatch_tag_70 = 70;
