__global__ void tiled(const float* in, float* out, int n) { // want kernel=tiled sync:"33"
  __shared__ float tile[256];
  __syncthreads();
  for (int t = 0; t < n; t += 256) {
    tile[threadIdx.x] = in[t + threadIdx.x];
    __syncthreads();
    out[t + threadIdx.x] = tile[255 - threadIdx.x];
    __syncthreads();
  }
}

__global__ void useless(const float* in, float* out) { // want kernel=useless sync:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 2.0f;
  __syncthreads(); // want `__syncthreads\(\) in kernel useless, which uses no shared memory, atomics or fences, orders nothing`
}

__device__ void stage(float* s) { s[threadIdx.x] = 0; __syncthreads(); }
__global__ void calls(float* out) { // want kernel=calls sync:"4"
  __shared__ float s[128];
  for (int r = 0; r < 4; r++) stage(s);
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void cg(float* out) { // want kernel=cg sync:"2"
  auto block = cooperative_groups::this_thread_block();
  __shared__ float s[64];
  s[threadIdx.x] = 1;
  block.sync();
  cooperative_groups::sync(block);
  auto tile32 = cooperative_groups::tiled_partition<32>(block);
  tile32.sync();
  out[0] = s[0];
}

// Shared memory the analysis cannot see (reduction's SharedMemory<T>()
// helper returns an extern __shared__ pointer): the barrier may prevent a
// race, so no advice to remove it.
template <class T> struct SharedMemory { __device__ T *get(); };
__global__ void hidden(const float* in, float* out) { // want kernel=hidden sync:"1"
  float* sdata = SharedMemory<float>().get();
  sdata[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = sdata[(threadIdx.x + 1) % blockDim.x];
}

// Global memory written by one thread and read by another after the
// barrier: the barrier orders them.
__global__ void handoff(float* buf, float* out) { // want kernel=handoff sync:"1"
  buf[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buf[blockIdx.x * blockDim.x + (threadIdx.x ^ 1)];
}
