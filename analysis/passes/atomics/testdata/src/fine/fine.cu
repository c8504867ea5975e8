// Spread, shared-memory and aggregated atomics are not reported.
__global__ void hist(const int* data, unsigned* bins, int n) { // want kernel=hist atomics:"2"
  __shared__ unsigned local[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&local[data[i] & 255], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void warpsum(const float* in, float* out) { // want kernel=warpsum atomics:"1"
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(&out[0], v);
}

__global__ void cas(int* lock) { // want kernel=cas atomics:"0"
  int v = lock[threadIdx.x];
  lock[threadIdx.x] = v + 1;
}
