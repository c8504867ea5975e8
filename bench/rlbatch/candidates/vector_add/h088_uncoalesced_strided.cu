// strategy: deliberately poor (uncoalesced) - elements assigned column-major over a 4096-row view, so neighbouring lanes are (n+4095)/4096 floats apart and each 4-byte access costs a 32-byte sector
#include <cuda_runtime.h>

#define ROWS 4096

// Thread t handles element (t % ROWS) * cols + t / ROWS of the array viewed as
// ROWS rows of `cols` columns; indices past n (ragged last column) are skipped.
__global__ void vector_add_strided(const float *a, const float *b, float *c, int n, int cols) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)ROWS * cols) return;
  long long i = (t % ROWS) * cols + t / ROWS;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
  if (n <= 0) return;
  int cols = (n + ROWS - 1) / ROWS;
  long long total = (long long)ROWS * cols;
  const int threads = 256;
  vector_add_strided<<<(int)((total + threads - 1) / threads), threads>>>(a, b, c, n, cols);
}

// rlbatch: copy 88
__device__ int rlbatch_tag_88 = 88;
