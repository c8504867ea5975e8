// strategy: sub-row parallelism - 4 threads per row take every 4th slot (a quarter of the row each, for long rows), partial sums combined with __shfl_down_sync in groups of 4
#include <cuda_runtime.h>

__global__ void ell_quad(const int *col_idx, const float *val, const float *x, float *y, int rows, int width) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long r = t >> 2;
  int q = (int)(t & 3);
  float acc = 0.0f;
  if (r < rows) {
    for (int j = q; j < width; j += 4) {
      long long k = (long long)j * rows + r;
      int c = col_idx[k];
      if (c >= 0) acc += val[k] * x[c];
    }
  }
  acc += __shfl_down_sync(0xffffffffu, acc, 2, 4);
  acc += __shfl_down_sync(0xffffffffu, acc, 1, 4);
  if (r < rows && q == 0) y[r] = acc;
}

extern "C" void spmv_ell(const int *col_idx, const float *val, const float *x, float *y, int rows, int width) {
  if (rows <= 0) return;
  long long threads = (long long)rows * 4;
  ell_quad<<<(unsigned)((threads + 255) / 256), 256>>>(col_idx, val, x, y, rows, width);
}
