#include <cuda_runtime.h>

// 256-bin byte histogram straight into global memory: heavy contention on
// skewed inputs, the baseline for the privatized version.
__global__ void histo_global(const unsigned char *buffer, long size, unsigned int *histo) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = blockDim.x * gridDim.x;
  while (i < size) {
    atomicAdd(&histo[buffer[i]], 1);
    i += stride;
  }
}

void histogram(const unsigned char *d_buf, long size, unsigned int *d_histo) {
  cudaMemset(d_histo, 0, 256 * sizeof(unsigned int));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int blocks = prop.multiProcessorCount * 2;
  histo_global<<<blocks, 256>>>(d_buf, size, d_histo);
}
