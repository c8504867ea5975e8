#define FULL 0xffffffff

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__global__ void blocksum(const float* in, float* out) { // want kernel=blocksum warp_shuffles:"10" warp_reductions:"2"
  __shared__ float part[32];
  float v = warpSum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = part[threadIdx.x];
    v = warpSum(v);
  }
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void butterfly(float* x) { // want kernel=butterfly warp_shuffles:"5" warp_reductions:"1"
  float v = x[threadIdx.x];
  for (int m = 1; m < 32; m *= 2) v = fmaxf(v, __shfl_xor_sync(FULL, v, m));
  x[threadIdx.x] = v;
}

__global__ void intrinsic(const int* in, int* out) { // want kernel=intrinsic warp_shuffles:"1" warp_reductions:"1"
  int v = in[threadIdx.x];
  int s = __reduce_add_sync(0xffffffff, v);
  int b = __shfl_sync(0xffffffff, v, 0);
  out[threadIdx.x] = s + b;
}

__global__ void divergent(float* x) { // want kernel=divergent warp_shuffles:"1" warp_reductions:"0"
  float v = x[threadIdx.x];
  if (threadIdx.x % 2 == 0) {
    v = __shfl_down_sync(0xffffffff, v, 1); // want `__shfl_down_sync with the full mask 0xffffffff runs only in lanes where \(threadIdx.x % 2 == 0\) holds`
  }
  x[threadIdx.x] = v;
}

// The full mask spelled as a macro (NVIDIA's FULL_MASK idiom), a constexpr
// or ~0u is the full mask too (only the literal was recognised); a mask of
// the active lanes is not.
#define FULL_MASK 0xffffffff
constexpr unsigned kFull = 0xffffffffu;
__global__ void spelled(float* x) { // want kernel=spelled warp_shuffles:"4"
  float v = x[threadIdx.x];
  int lane = threadIdx.x & 31;
  if (lane < 16) v += __shfl_down_sync(FULL_MASK, v, 8); // want `full mask 0xffffffff runs only in lanes where \(lane < 16\) holds`
  if (lane < 16) v += __shfl_down_sync(kFull, v, 8); // want `full mask 0xffffffff runs only in lanes where \(lane < 16\) holds`
  if (lane < 16) v += __shfl_down_sync(~0u, v, 8); // want `full mask 0xffffffff runs only in lanes where \(lane < 16\) holds`
  if (lane < 16) v += __shfl_down_sync(0x0000ffff, v, 8);
  x[threadIdx.x] = v;
}
