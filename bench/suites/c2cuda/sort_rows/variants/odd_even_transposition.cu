// strategy: deliberately poor (barrier-bound) - a block per row runs odd-even transposition sort in shared memory: cols phases, each a round of neighbour compare-swaps and a __syncthreads
#include <cuda_runtime.h>

#define MAXC 1024

__global__ void sort_oddeven(const unsigned int *in, unsigned int *out, int cols) {
  __shared__ unsigned int s[MAXC];
  const unsigned int *row = in + (long long)blockIdx.x * cols;
  unsigned int *o = out + (long long)blockIdx.x * cols;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) s[i] = row[i];
  __syncthreads();
  for (int phase = 0; phase < cols; phase++) {
    for (int i = 2 * threadIdx.x + (phase & 1); i + 1 < cols; i += 2 * blockDim.x) {
      unsigned int a = s[i], b = s[i + 1];
      if (a > b) {
        s[i] = b;
        s[i + 1] = a;
      }
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < cols; i += blockDim.x) o[i] = s[i];
}

extern "C" void sort_rows(const unsigned int *in, unsigned int *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  sort_oddeven<<<rows, 512>>>(in, out, cols);
}
