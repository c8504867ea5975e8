// strategy: register blocking - BM x BN block tile with BK-deep shared-memory stages (A stored transposed), TM x TN outputs per thread in registers on a strided grid, bias and relu fused into the epilogue
// sweep: BM = 32, 64, 128
// sweep: BN = 32, 64, 128
// sweep: BK = 8, 16, 32
// sweep: TM = 2, 4, 8
// sweep: TN = 2, 4, 8
// sweep-require: (BM / TM) * (BN / TN) >= 64
// sweep-require: (BM / TM) * (BN / TN) <= 512
// sweep-require: BM * BK % ((BM / TM) * (BN / TN)) == 0
// sweep-require: BK * BN % ((BM / TM) * (BN / TN)) == 0
#include <cuda_runtime.h>

#define TX (BN / TN)   // threads along a row of the tile
#define TY (BM / TM)
#define NT (TX * TY)

__global__ void __launch_bounds__(NT) gbr_regblock(const float *__restrict__ A, const float *__restrict__ B,
                                                   const float *__restrict__ bias, float *__restrict__ C, int M, int N,
                                                   int K) {
  __shared__ float As[BK][BM];  // As[k][m]: a thread's TM values of one k are a broadcast-friendly column
  __shared__ float Bs[BK][BN];
  const int t = threadIdx.x, tx = t % TX, ty = t / TX;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0.0f;

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int l = 0; l < BM * BK / NT; l++) {
      int idx = t + l * NT, r = idx / BK, kk = idx % BK;
      int gr = bm + r, gk = k0 + kk;
      As[kk][r] = (gr < M && gk < K) ? A[(size_t)gr * K + gk] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < BK * BN / NT; l++) {
      int idx = t + l * NT, kk = idx / BN, c = idx % BN;
      int gk = k0 + kk, gc = bn + c;
      Bs[kk][c] = (gk < K && gc < N) ? B[(size_t)gk * N + gc] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk++) {
      float a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; i++) a[i] = As[kk][ty + TY * i];
#pragma unroll
      for (int j = 0; j < TN; j++) b[j] = Bs[kk][tx + TX * j];
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; i++) {
    int r = bm + ty + TY * i;
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; j++) {
      int c = bn + tx + TX * j;
      if (c < N) C[(size_t)r * N + c] = fmaxf(acc[i][j] + bias[c], 0.0f);
    }
  }
}

extern "C" void gemm_bias_relu(const float *A, const float *B, const float *bias, float *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  gbr_regblock<<<grid, NT>>>(A, B, bias, C, M, N, K);
}
