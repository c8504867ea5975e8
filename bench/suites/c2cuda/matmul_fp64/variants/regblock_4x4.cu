// strategy: register blocking - 64x64 tiles per 256-thread block, 8-deep slices of A (transposed) and B in shared memory, a 4x4 block of outputs per thread
#include <cuda_runtime.h>

#define BMN 64
#define BK 8

__global__ void dgemm_reg(const double *A, const double *B, double *C, int M, int N, int K) {
  __shared__ double As[BK][BMN];  // As[k][m]
  __shared__ double Bs[BK][BMN];  // Bs[k][n]
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int m0 = blockIdx.y * BMN, n0 = blockIdx.x * BMN;
  double acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BMN * BK; i += 256) {
      int r = i / BK, c = i % BK;  // A tile: row r, column c (coalesced along k)
      As[c][r] = (m0 + r < M && k0 + c < K) ? A[(long long)(m0 + r) * K + k0 + c] : 0.0;
      int kr = i / BMN, nc = i % BMN;  // B tile: row kr, column nc (coalesced along n)
      Bs[kr][nc] = (k0 + kr < K && n0 + nc < N) ? B[(long long)(k0 + kr) * N + n0 + nc] : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk++) {
      double a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; i++) a[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; j++) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; i++)
#pragma unroll
    for (int j = 0; j < 4; j++) {
      int m = m0 + ty + 16 * i, n = n0 + tx + 16 * j;
      if (m < M && n < N) C[(long long)m * N + n] = acc[i][j];
    }
}

extern "C" void matmul_fp64(const double *A, const double *B, double *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 grid((N + BMN - 1) / BMN, (M + BMN - 1) / BMN);
  dgemm_reg<<<grid, 256>>>(A, B, C, M, N, K);
}
