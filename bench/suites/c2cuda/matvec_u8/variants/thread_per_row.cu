// strategy: deliberately poor (uncoalesced) - one thread per row reads its bytes one at a time; a warp's lanes are cols bytes apart
#include <cuda_runtime.h>

__global__ void mv8_thread(const unsigned char *a, const unsigned char *x, unsigned int *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const unsigned char *row = a + (long long)r * cols;
  unsigned int acc = 0;
  for (int j = 0; j < cols; j++) acc += (unsigned int)row[j] * x[j];
  y[r] = acc;
}

extern "C" void matvec_u8(const unsigned char *a, const unsigned char *x, unsigned int *y, int rows, int cols) {
  if (rows <= 0) return;
  mv8_thread<<<(rows + 127) / 128, 128>>>(a, x, y, rows, cols);
}
