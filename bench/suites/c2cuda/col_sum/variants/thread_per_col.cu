// strategy: naive - one thread per column walks all rows; reads are coalesced across the warp but only `cols` threads exist
#include <cuda_runtime.h>

__global__ void col_sum_thread(const float *a, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float acc = 0.0f;
  for (int r = 0; r < rows; r++) acc += a[(long long)r * cols + c];
  out[c] = acc;
}

extern "C" void col_sum(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  const int threads = 256;
  col_sum_thread<<<(cols + threads - 1) / threads, threads>>>(a, out, rows, cols);
}
