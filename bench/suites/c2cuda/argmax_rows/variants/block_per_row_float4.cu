// strategy: vectorized loads - one 256-thread block per row, float4 loads when the row is 16-byte aligned, warp shuffles then a shared-memory step across the 8 warps
#include <cuda_runtime.h>

__device__ __forceinline__ void better(float &bv, int &bi, float v, int i) {
  if (v > bv || (v == bv && i < bi)) bv = v, bi = i;
}

__global__ void argmax_block(const float *a, int *out, int rows, int cols) {
  __shared__ float sv[8];
  __shared__ int si[8];
  const float *row = a + (long long)blockIdx.x * cols;
  float bv = -INFINITY;
  int bi = 0x7fffffff;
  if ((cols & 3) == 0) {
    const float4 *row4 = reinterpret_cast<const float4 *>(row);
    for (int q = threadIdx.x; q < cols / 4; q += blockDim.x) {
      float4 v = row4[q];
      better(bv, bi, v.x, 4 * q);
      better(bv, bi, v.y, 4 * q + 1);
      better(bv, bi, v.z, 4 * q + 2);
      better(bv, bi, v.w, 4 * q + 3);
    }
  } else {
    for (int j = threadIdx.x; j < cols; j += blockDim.x) better(bv, bi, row[j], j);
  }
  for (int off = 16; off > 0; off >>= 1) {
    float ov = __shfl_down_sync(0xffffffffu, bv, off);
    int oi = __shfl_down_sync(0xffffffffu, bi, off);
    better(bv, bi, ov, oi);
  }
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) sv[warp] = bv, si[warp] = bi;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < 8; w++) better(bv, bi, sv[w], si[w]);
    out[blockIdx.x] = bi;
  }
}

extern "C" void argmax_rows(const float *a, int *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  argmax_block<<<rows, 256>>>(a, out, rows, cols);
}
