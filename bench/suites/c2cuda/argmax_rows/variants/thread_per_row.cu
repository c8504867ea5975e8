// strategy: deliberately poor (uncoalesced) - one thread scans a whole row, so a warp's lanes read 32 rows cols*4 bytes apart
#include <cuda_runtime.h>

__global__ void argmax_thread(const float *a, int *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = a + (long long)r * cols;
  float bv = row[0];
  int bi = 0;
  for (int j = 1; j < cols; j++) {
    float v = row[j];
    if (v > bv) bv = v, bi = j;
  }
  out[r] = bi;
}

extern "C" void argmax_rows(const float *a, int *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  argmax_thread<<<(rows + 127) / 128, 128>>>(a, out, rows, cols);
}
