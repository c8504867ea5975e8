#include <cuda_runtime.h>

// y = A x for a row-major MxN matrix: one warp per row, float4 loads when
// the row is 16-byte aligned.
__global__ void sgemv_warp(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y, int M,
                           int N) {
  const int warps_per_block = blockDim.x / 32;
  const int row = blockIdx.x * warps_per_block + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= M) return;
  const float *a = A + (size_t)row * N;
  float sum = 0.f;
  if ((N & 3) == 0) {
    const float4 *a4 = reinterpret_cast<const float4 *>(a);
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    for (int c = lane; c < N / 4; c += 32) {
      float4 av = a4[c], xv = x4[c];
      sum += av.x * xv.x + av.y * xv.y + av.z * xv.z + av.w * xv.w;
    }
  } else {
    for (int c = lane; c < N; c += 32) sum += a[c] * x[c];
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffff, sum, off);
  if (lane == 0) y[row] = sum;
}

void sgemv(const float *A, const float *x, float *y, int M, int N, cudaStream_t s) {
  const int threads = 256;
  const int rows_per_block = threads / 32;
  sgemv_warp<<<(M + rows_per_block - 1) / rows_per_block, threads, 0, s>>>(A, x, y, M, N);
}
