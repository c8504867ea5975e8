// strategy: brute force in shared memory - a block per row; each element's output position is the number of keys smaller than it (ties broken by index), O(cols^2) comparisons from shared memory but no barriers in the loop
#include <cuda_runtime.h>

#define MAXC 1024

__global__ void sort_rank(const unsigned int *in, unsigned int *out, int cols) {
  __shared__ unsigned int s[MAXC];
  const unsigned int *row = in + (long long)blockIdx.x * cols;
  unsigned int *o = out + (long long)blockIdx.x * cols;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) s[i] = row[i];
  __syncthreads();
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    unsigned int v = s[i];
    int rank = 0;
    for (int j = 0; j < cols; j++) {
      unsigned int u = s[j];
      rank += (u < v) || (u == v && j < i);
    }
    o[rank] = v;
  }
}

extern "C" void sort_rows(const unsigned int *in, unsigned int *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  sort_rank<<<rows, 256>>>(in, out, cols);
}
