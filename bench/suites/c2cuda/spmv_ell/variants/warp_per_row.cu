// strategy: deliberately poor (uncoalesced) - one warp per row with lanes over the slots: in column-major ELL a warp's lanes then read addresses rows*4 bytes apart, and short rows idle most lanes
#include <cuda_runtime.h>

__global__ void ell_warp(const int *col_idx, const float *val, const float *x, float *y, int rows, int width) {
  int lane = threadIdx.x & 31;
  long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (r >= rows) return;  // warp-uniform
  float acc = 0.0f;
  for (int j = lane; j < width; j += 32) {
    long long k = (long long)j * rows + r;
    int c = col_idx[k];
    if (c >= 0) acc += val[k] * x[c];
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) y[r] = acc;
}

extern "C" void spmv_ell(const int *col_idx, const float *val, const float *x, float *y, int rows, int width) {
  if (rows <= 0) return;
  long long threads = (long long)rows * 32;
  ell_warp<<<(unsigned)((threads + 255) / 256), 256>>>(col_idx, val, x, y, rows, width);
}
