// strategy: coalesced (ELL's column-major layout) - one thread per row walks every slot, so a warp reads 32 consecutive slots of each column; BLOCK threads per block
// sweep: BLOCK = 32, 64, 128, 256, 512, 1024
#include <cuda_runtime.h>

__global__ void ell_thread(const int *col_idx, const float *val, const float *x, float *y, int rows, int width) {
  int r = blockIdx.x * BLOCK + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int j = 0; j < width; j++) {
    long long k = (long long)j * rows + r;
    int c = col_idx[k];
    if (c >= 0) acc += val[k] * x[c];
  }
  y[r] = acc;
}

extern "C" void spmv_ell(const int *col_idx, const float *val, const float *x, float *y, int rows, int width) {
  if (rows <= 0) return;
  ell_thread<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(col_idx, val, x, y, rows, width);
}
