// strategy: deliberately poor (uncoalesced) - column-major assignment over a 4096-row view of the array, so each lane's 4-byte access is its own 32-byte sector
#include <cuda_runtime.h>

#define ROWS 4096

__global__ void gelu_strided(const float *x, float *y, int n, int cols) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)ROWS * cols) return;
  long long i = (t % ROWS) * cols + t / ROWS;
  if (i < n) {
    float v = x[i];
    float u = 0.7978845608028654f * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(u));
  }
}

static void gelu_rlbatch_impl(const float *x, float *y, int n) {
  if (n <= 0) return;
  int cols = (n + ROWS - 1) / ROWS;
  long long total = (long long)ROWS * cols;
  const int threads = 256;
  gelu_strided<<<(int)((total + threads - 1) / threads), threads>>>(x, y, n, cols);
}

extern "C" void gelu(const float *x, float *y, int n) {
    gelu_rlbatch_impl(x, y, n);
}

// rlbatch: copy 89
__device__ int rlbatch_tag_89 = 89;
