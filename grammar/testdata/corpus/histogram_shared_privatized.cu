#include <cuda_runtime.h>
#include <cstdint>

#define NUM_BINS 256

// Per-block private histograms in shared memory, merged with one atomic per
// bin per block; input read as uint4 (16 bytes per load).
__global__ void histo_shared(const uint4 *__restrict__ data, size_t n16, unsigned int *__restrict__ histo) {
  __shared__ unsigned int local[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();

  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = data[i];
    const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int w = 0; w < 4; ++w) {
#pragma unroll
      for (int k = 0; k < 4; ++k) atomicAdd(&local[(words[w] >> (8 * k)) & 0xFF], 1u);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
    if (local[b]) atomicAdd(&histo[b], local[b]);
  }
}
