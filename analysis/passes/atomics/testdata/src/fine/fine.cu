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

// Elections under a bounds guard, a negation, a comparison with a small
// constant, a switch on the thread and the caller's are aggregated.
__device__ void flush(float* out, float v) { atomicAdd(&out[4], v); }
__global__ void elect(const float* in, float* out, int n) { // want kernel=elect atomics:"5"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  if (i < n && threadIdx.x == 0) atomicAdd(&out[0], v);
  if (!(threadIdx.x & 31)) atomicAdd(&out[1], v);
  if ((threadIdx.x & 31) < 1) atomicAdd(&out[3], v);
  switch (threadIdx.x) {
  case 0: atomicAdd(&out[2], v); break;
  }
  if (threadIdx.x == 0) flush(out, v);
}

// A device function's pointer parameter points where its caller says: a
// shared array, or a per-thread address (both had been taken for one
// global address).
__device__ void bump(unsigned* local, unsigned w) { atomicAdd(&local[w >> 24], 1u); }
__device__ void add_at(float* addr, float v) { atomicAdd(addr, v); }
__global__ void viadevice(const unsigned* data, const int* idx, float* out, int n) { // want kernel=viadevice atomics:"2"
  __shared__ unsigned local[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = i; k < n; k += blockDim.x * gridDim.x) {
    bump(local, data[k]);
    add_at(&out[idx[k]], 1.0f);
  }
}
