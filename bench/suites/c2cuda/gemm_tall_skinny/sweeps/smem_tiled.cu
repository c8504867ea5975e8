// strategy: shared-memory tiling - BM x 16 tiles of C per 256-thread block, A and B staged through shared memory in BK-deep slices with coalesced loads, BM/16 outputs per thread
// sweep: BM = 16, 32, 64, 128
// sweep: BK = 8, 16, 32
#include <cuda_runtime.h>

#define BN 16
#define THREADS 256

__global__ void ts_tiled(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[BM][BK + 1];
  __shared__ float Bs[BK][BN];
  int tx = threadIdx.x % BN, ty = threadIdx.x / BN;  // ty in [0, 16)
  long long m0 = (long long)blockIdx.x * BM;
  int n0 = blockIdx.y * BN;
  float acc[BM / 16];
#pragma unroll
  for (int i = 0; i < BM / 16; i++) acc[i] = 0.0f;
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += THREADS) {
      int r = i / BK, c = i % BK;
      As[r][c] = (m0 + r < M && k0 + c < K) ? A[(m0 + r) * K + k0 + c] : 0.0f;
    }
    for (int i = threadIdx.x; i < BK * BN; i += THREADS) {
      int r = i / BN, c = i % BN;
      Bs[r][c] = (k0 + r < K && n0 + c < N) ? B[(long long)(k0 + r) * N + n0 + c] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk++) {
      float b = Bs[kk][tx];
#pragma unroll
      for (int i = 0; i < BM / 16; i++) acc[i] += As[ty + 16 * i][kk] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < BM / 16; i++) {
    long long m = m0 + ty + 16 * i;
    if (m < M && n0 + tx < N) C[m * N + n0 + tx] = acc[i];
  }
}

extern "C" void gemm_tall_skinny(const float *A, const float *B, float *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 grid((M + BM - 1) / BM, (N + BN - 1) / BN);
  ts_tiled<<<grid, THREADS>>>(A, B, C, M, N, K);
}
