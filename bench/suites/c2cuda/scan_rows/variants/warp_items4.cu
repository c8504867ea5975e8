// strategy: warp primitives - one warp per row, each lane scans 4 consecutive elements in registers (a float4 load when the row is 16-byte aligned), then a __shfl_up_sync scan of the lane totals and a carry across 128-element chunks
#include <cuda_runtime.h>

__global__ void scan_warp4(const float *a, float *out, int rows, int cols) {
  int lane = threadIdx.x & 31;
  int r = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (r >= rows) return;  // warp-uniform
  const float *in = a + (long long)r * cols;
  float *o = out + (long long)r * cols;
  bool aligned = ((cols & 3) == 0);
  float carry = 0.0f;
  for (int j0 = 0; j0 < cols; j0 += 128) {
    int j = j0 + 4 * lane;
    float v[4];
    if (aligned && j + 3 < cols) {
      float4 q = *reinterpret_cast<const float4 *>(in + j);
      v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    } else {
#pragma unroll
      for (int k = 0; k < 4; k++) v[k] = (j + k < cols) ? in[j + k] : 0.0f;
    }
    v[1] += v[0], v[2] += v[1], v[3] += v[2];
    float s = v[3];
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      float n = __shfl_up_sync(0xffffffffu, s, off);
      if (lane >= off) s += n;
    }
    float base = carry + s - v[3];  // exclusive prefix of this lane
#pragma unroll
    for (int k = 0; k < 4; k++)
      if (j + k < cols) o[j + k] = base + v[k];
    carry += __shfl_sync(0xffffffffu, s, 31);
  }
}

extern "C" void scan_rows(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  scan_warp4<<<(rows + 7) / 8, 256>>>(a, out, rows, cols);
}
