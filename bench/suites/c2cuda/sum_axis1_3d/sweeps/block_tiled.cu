// strategy: shared-memory tiling - a 32 x BY block covers 32 consecutive c; its BY thread rows split the B axis, read coalesced rows, and their partial sums are combined in shared memory
// sweep: BY = 2, 4, 8, 16, 32
#include <cuda_runtime.h>

__global__ void axis1_tiled(const float *x, float *out, int A, int B, int C) {
  __shared__ float part[BY][33];
  int tx = threadIdx.x, ty = threadIdx.y, c = blockIdx.x * 32 + tx, a = blockIdx.y;
  float acc = 0.0f;
  if (c < C) {
    const float *p = x + (long long)a * B * C + c;
    for (int b = ty; b < B; b += BY) acc += p[(long long)b * C];
  }
  part[ty][tx] = acc;
  __syncthreads();
  if (ty == 0 && c < C) {
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < BY; j++) s += part[j][tx];
    out[(long long)a * C + c] = s;
  }
}

extern "C" void sum_axis1_3d(const float *x, float *out, int A, int B, int C) {
  if (A <= 0 || C <= 0) return;
  dim3 block(32, BY), grid((C + 31) / 32, A);
  axis1_tiled<<<grid, block>>>(x, out, A, B, C);
}
