#include <cuda_runtime.h>

// Group lanes holding the same key (sm_70+ __match_any_sync) so that only one
// lane per distinct key performs the atomic update.
__global__ void histogram_match(const int *keys, int n, unsigned int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned active = __ballot_sync(0xffffffff, i < n);
  if (i >= n) return;
  int key = keys[i];
  unsigned peers = __match_any_sync(active, key);
  int leader = __ffs(peers) - 1;
  int lane = threadIdx.x % 32;
  if (lane == leader) atomicAdd(&bins[key], __popc(peers));
}

__device__ __forceinline__ unsigned reverse_bits(unsigned x) { return __brev(x); }
__device__ __forceinline__ int leading_zeros(unsigned long long x) { return __clzll(x); }
__device__ __forceinline__ unsigned funnel(unsigned lo, unsigned hi, unsigned s) { return __funnelshift_l(lo, hi, s); }
__device__ __forceinline__ unsigned byte_perm(unsigned a, unsigned b) { return __byte_perm(a, b, 0x3210); }
