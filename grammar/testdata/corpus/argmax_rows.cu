#include <cfloat>
#include <cuda_runtime.h>

struct ValIdx {
  float v;
  int i;
};

__device__ __forceinline__ ValIdx better(ValIdx a, ValIdx b) {
  return (b.v > a.v || (b.v == a.v && b.i < a.i)) ? b : a;
}

__device__ __forceinline__ ValIdx warp_argmax(ValIdx x) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    ValIdx o;
    o.v = __shfl_xor_sync(0xffffffff, x.v, off);
    o.i = __shfl_xor_sync(0xffffffff, x.i, off);
    x = better(x, o);
  }
  return x;
}

// One warp per row.
__global__ void argmax_rows(const float *__restrict__ m, int *__restrict__ out, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  const float *row = m + (size_t)warp * cols;
  ValIdx best{-FLT_MAX, 0x7fffffff};
  for (int c = lane; c < cols; c += 32) best = better(best, ValIdx{row[c], c});
  best = warp_argmax(best);
  if (lane == 0) out[warp] = best.i;
}
