// strategy: shared-memory sorting network - a block of THREADS threads per row sorts the row, padded to a power of two with the largest key, with a bitonic network in shared memory
// sweep: THREADS = 64, 128, 256, 512, 1024
#include <cuda_runtime.h>

#define MAXC 1024

__global__ void sort_bitonic(const unsigned int *in, unsigned int *out, int cols) {
  __shared__ unsigned int s[MAXC];
  const unsigned int *row = in + (long long)blockIdx.x * cols;
  unsigned int *o = out + (long long)blockIdx.x * cols;
  int p = 1;
  while (p < cols) p <<= 1;
  for (int i = threadIdx.x; i < p; i += THREADS) s[i] = i < cols ? row[i] : 0xFFFFFFFFu;
  __syncthreads();
  for (int k = 2; k <= p; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < p; i += THREADS) {
        int ixj = i ^ j;
        if (ixj > i) {
          unsigned int a = s[i], b = s[ixj];
          if ((a > b) == ((i & k) == 0)) {
            s[i] = b;
            s[ixj] = a;
          }
        }
      }
      __syncthreads();
    }
  for (int i = threadIdx.x; i < cols; i += THREADS) o[i] = s[i];
}

extern "C" void sort_rows(const unsigned int *in, unsigned int *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  sort_bitonic<<<rows, THREADS>>>(in, out, cols);
}
