// strategy: deliberately poor (uncoalesced) - outputs assigned column-major over a 4096-row view, so neighbouring lanes are far apart and every read and write is its own sector
#include <cuda_runtime.h>

#define ROWS 4096

__global__ void stencil_strided(const float *x, const float *w, float *y, int n, int cols) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)ROWS * cols) return;
  long long i = (t % ROWS) * cols + t / ROWS;
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < 7; k++) {
    long long j = i + k - 3;
    j = j < 0 ? 0 : (j >= n ? n - 1 : j);
    acc += w[k] * x[j];
  }
  y[i] = acc;
}

extern "C" void stencil_1d_7pt(const float *x, const float *w, float *y, int n) {
  if (n <= 0) return;
  int cols = (n + ROWS - 1) / ROWS;
  long long total = (long long)ROWS * cols;
  const int threads = 256;
  stencil_strided<<<(int)((total + threads - 1) / threads), threads>>>(x, w, y, n, cols);
}
