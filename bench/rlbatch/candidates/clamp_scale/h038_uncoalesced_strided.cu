// strategy: deliberately poor (uncoalesced) - column-major assignment over a 4096-row view, one 32-byte sector per 4-byte access, with the data-dependent branch
#include <cuda_runtime.h>

#define ROWS 4096

__global__ void clamp_scale_strided(const float *x, float *y, float lo, float hi, float scale, int n, int cols) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)ROWS * cols) return;
  long long i = (t % ROWS) * cols + t / ROWS;
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
  int cols = (n + ROWS - 1) / ROWS;
  long long total = (long long)ROWS * cols;
  const int threads = 256;
  clamp_scale_strided<<<(int)((total + threads - 1) / threads), threads>>>(x, y, lo, hi, scale, n, cols);
}

// rlbatch: copy 38
__device__ int rlbatch_tag_38 = 38;
