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
