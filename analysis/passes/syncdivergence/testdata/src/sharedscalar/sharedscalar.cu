// A __shared__ scalar is one value per block: written by thread 0, read by
// all after a barrier, it is block-uniform, and so is a loop bounded by it
// (eigenvalues/bisect_kernel_large.cuh: num_threads_compaction).
__device__ void scan(unsigned short *s, unsigned int count) {
  for (unsigned int d = count >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
  }
  __syncthreads();
}

__global__ void blocks(unsigned short *out, const unsigned int *in) { // want kernel=blocks sync_divergent:"0"
  __shared__ unsigned int active;
  __shared__ unsigned short s[512];
  if (threadIdx.x == 0) {
    active = in[blockIdx.x];
  }
  __syncthreads();
  s[threadIdx.x] = threadIdx.x;
  scan(s, active);
  for (unsigned int i = 0; i < active; ++i) {
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x];
}

// A per-thread value still makes the barrier divergent.
__global__ void threads(const unsigned int *in) { // want kernel=threads sync_divergent:"1"
  unsigned int mine = in[threadIdx.x];
  for (unsigned int i = 0; i < mine; ++i) {
    __syncthreads(); // want `__syncthreads\(\) is reached only by the threads for which i < mine holds`
  }
}

// CuTe's size<2>(partition) is the shape of every thread's partition: the
// same number of k-tiles in every thread (cutlass examples/cute/tutorial).
template <class TA>
__global__ void mainloop(TA tAgA) { // want kernel=mainloop sync_divergent:"0"
  auto tA = local_partition(tAgA, threadIdx.x);
  auto K_TILE_MAX = size<2>(tA);
  for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
    __syncthreads();
  }
}
