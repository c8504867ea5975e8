// strategy: deliberately poor (atomics-heavy) - zero the output, then every element atomicAdd-s itself into its row's sum (a warp's lanes mostly hit one address)
#include <cuda_runtime.h>

__global__ void row_sum_atomic(const float *a, float *out, int rows, int cols) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long total = (long long)rows * cols;
  if (i < total) atomicAdd(&out[i / cols], a[i]);
}

static void row_sum_rlbatch_impl(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  cudaMemsetAsync(out, 0, (size_t)rows * sizeof(float), 0);
  long long total = (long long)rows * cols;
  const int threads = 256;
  row_sum_atomic<<<(int)((total + threads - 1) / threads), threads>>>(a, out, rows, cols);
}

extern "C" void row_sum(const float *a, float *out, int rows, int cols) {
    row_sum_rlbatch_impl(a, out, rows, cols);
}

// rlbatch: copy 43
__device__ int rlbatch_tag_43 = 43;
