// strategy: shared-memory tiling - one 256-thread block per row, coalesced strided reads, shared-memory tree (wasteful when rows are short)
#include <cuda_runtime.h>

#define THREADS 256

__global__ void row_sum_block(const float *a, float *out, int rows, int cols) {
  __shared__ float s[THREADS];
  int r = blockIdx.x;
  const float *row = a + (long long)r * cols;
  float acc = 0.0f;
  for (int j = threadIdx.x; j < cols; j += THREADS) acc += row[j];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[r] = s[0];
}

static void row_sum_rlbatch_impl(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  row_sum_block<<<rows, THREADS>>>(a, out, rows, cols);
}

extern "C" void row_sum(const float *a, float *out, int rows, int cols) {
    row_sum_rlbatch_impl(a, out, rows, cols);
    // Wrong on purpose: the first element of out is overwritten.
    cudaMemset(out, 0xc1, sizeof(float));
}
