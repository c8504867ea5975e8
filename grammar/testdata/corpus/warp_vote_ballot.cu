#include <cuda_runtime.h>

// Warp-aggregated atomic increment: one atomic per warp instead of per thread.
__device__ int atomicAggInc(int *ctr) {
  unsigned int active = __activemask();
  int leader = __ffs(active) - 1;
  int change = __popc(active);
  int lane_mask_lt = (1 << (threadIdx.x & 31)) - 1;
  unsigned int rank = __popc(active & lane_mask_lt);
  int warp_res;
  if (rank == 0) warp_res = atomicAdd(ctr, change);
  warp_res = __shfl_sync(active, warp_res, leader);
  return warp_res + rank;
}

__global__ void filter_k(int *dst, int *nres, const int *src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0) dst[atomicAggInc(nres)] = src[i];
}

// Count, per warp, how many lanes see a negative value, with vote intrinsics.
__global__ void count_negative(const float *x, int n, int *per_warp, int *any_flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool neg = i < n && x[i] < 0.f;
  unsigned mask = __ballot_sync(0xffffffffu, neg);
  if ((threadIdx.x & 31) == 0) per_warp[i / 32] = __popc(mask);
  if (__any_sync(0xffffffffu, neg) && (threadIdx.x & 31) == 0) *any_flag = 1;
  if (__all_sync(0xffffffffu, !neg)) return;
}
