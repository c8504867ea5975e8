// strategy: deliberately poor (uncoalesced) - elements assigned column-major over a 4096-row view, so neighbouring lanes touch addresses (n+4095)/4096 floats apart and every 4-byte access costs a 32-byte sector
#include <cuda_runtime.h>

#define ROWS 4096

// Thread t handles element (t % ROWS) * cols + t / ROWS of the array viewed as
// ROWS rows of `cols` columns; indices past n (ragged last column) are skipped.
__global__ void saxpy_strided(const float *x, float *y, float alpha, int n, int cols) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long total = (long long)ROWS * cols;
  if (t >= total) return;
  long long i = (t % ROWS) * cols + t / ROWS;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(const float *x, float *y, float alpha, int n) {
  if (n <= 0) return;
  int cols = (n + ROWS - 1) / ROWS;
  long long total = (long long)ROWS * cols;
  const int threads = 256;
  saxpy_strided<<<(int)((total + threads - 1) / threads), threads>>>(x, y, alpha, n, cols);
}
