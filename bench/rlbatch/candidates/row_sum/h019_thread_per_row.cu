// strategy: deliberately poor (uncoalesced) - one thread sums a whole row, so a warp's 32 lanes read 32 rows cols*4 bytes apart
#include <cuda_runtime.h>

__global__ void row_sum_thread(const float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = a + (long long)r * cols;
  float acc = 0.0f;
  for (int j = 0; j < cols; j++) acc += row[j];
  out[r] = acc;
}

static void row_sum_rlbatch_impl(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  const int threads = 256;
  row_sum_thread<<<(rows + threads - 1) / threads, threads>>>(a, out, rows, cols);
}

extern "C" void row_sum(const float *a, float *out, int rows, int cols) {
    row_sum_rlbatch_impl(a, out, rows, cols);
}

// rlbatch: copy 19
__device__ int rlbatch_tag_19 = 19;
