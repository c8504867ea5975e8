#include <cuda_runtime.h>

template <typename T>
__device__ __forceinline__ T warp_inclusive_scan(T v) {
  const unsigned lane = threadIdx.x & 31u;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    T n = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += n;
  }
  return v;
}

// Block-wide inclusive scan: warp scans, then a scan of warp totals.
template <typename T, int BLOCK>
__global__ void block_scan(const T *in, T *out, T *block_sums, int n) {
  static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "block must be whole warps");
  __shared__ T warp_totals[BLOCK / 32];
  int gid = blockIdx.x * BLOCK + threadIdx.x;
  T v = gid < n ? in[gid] : T(0);
  v = warp_inclusive_scan(v);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    T t = lane < BLOCK / 32 ? warp_totals[lane] : T(0);
    t = warp_inclusive_scan(t);
    if (lane < BLOCK / 32) warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (gid < n) out[gid] = v;
  if (threadIdx.x == BLOCK - 1 && block_sums) block_sums[blockIdx.x] = v;
}

template <typename T>
__global__ void add_block_offsets(T *out, const T *scanned_sums, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && gid < n) out[gid] += scanned_sums[blockIdx.x - 1];
}

void inclusive_scan(const int *in, int *out, int *sums, int *sums_scanned, int n) {
  constexpr int B = 512;
  int blocks = (n + B - 1) / B;
  block_scan<int, B><<<blocks, B>>>(in, out, sums, n);
  block_scan<int, B><<<1, B>>>(sums, sums_scanned, nullptr, blocks);
  add_block_offsets<<<blocks, B>>>(out, sums_scanned, n);
}
