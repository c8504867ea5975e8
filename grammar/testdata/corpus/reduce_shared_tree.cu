#include <cuda_runtime.h>

// Reduction #3 from Harris' "Optimizing Parallel Reduction in CUDA":
// sequential addressing, first add during global load.
template <unsigned int blockSize>
__global__ void reduce3(const int *g_idata, int *g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  int mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n) mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] = mySum = mySum + sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

int reduce_host(const int *d_in, int *d_partial, unsigned int n) {
  const unsigned int threads = 256;
  unsigned int blocks = (n + threads * 2 - 1) / (threads * 2);
  reduce3<threads><<<blocks, threads, threads * sizeof(int)>>>(d_in, d_partial, n);
  while (blocks > 1) {
    unsigned int m = blocks;
    blocks = (m + threads * 2 - 1) / (threads * 2);
    reduce3<threads><<<blocks, threads, threads * sizeof(int)>>>(d_partial, d_partial, m);
  }
  int result = 0;
  cudaMemcpy(&result, d_partial, sizeof(int), cudaMemcpyDeviceToHost);
  return result;
}
