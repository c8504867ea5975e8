// strategy: early exit - one thread per row stops at the row's first padding slot (entries come first), with read-only __ldg loads of the gathered x
#include <cuda_runtime.h>

__global__ void ell_break(const int *__restrict__ col_idx, const float *__restrict__ val, const float *__restrict__ x,
                          float *__restrict__ y, int rows, int width) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int j = 0; j < width; j++) {
    long long k = (long long)j * rows + r;
    int c = __ldg(col_idx + k);
    if (c < 0) break;
    acc += __ldg(val + k) * __ldg(x + c);
  }
  y[r] = acc;
}

extern "C" void spmv_ell(const int *col_idx, const float *val, const float *x, float *y, int rows, int width) {
  if (rows <= 0) return;
  ell_break<<<(rows + 255) / 256, 256>>>(col_idx, val, x, y, rows, width);
}
