// strategy: register blocking - one thread per row of C keeps 16 outputs in registers; B staged in shared memory; A read with stride K across a warp (uncoalesced)
#include <cuda_runtime.h>

#define NB 16
#define BK 64

__global__ void ts_row(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float Bs[BK][NB];
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  for (int n0 = 0; n0 < N; n0 += NB) {
    float acc[NB];
#pragma unroll
    for (int j = 0; j < NB; j++) acc[j] = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
      __syncthreads();
      for (int i = threadIdx.x; i < BK * NB; i += blockDim.x) {
        int k = k0 + i / NB, n = n0 + i % NB;
        Bs[i / NB][i % NB] = (k < K && n < N) ? B[(long long)k * N + n] : 0.0f;
      }
      __syncthreads();
      if (m < M) {
        int kend = min(BK, K - k0);
        for (int kk = 0; kk < kend; kk++) {
          float a = A[(long long)m * K + k0 + kk];
#pragma unroll
          for (int j = 0; j < NB; j++) acc[j] += a * Bs[kk][j];
        }
      }
    }
    if (m < M) {
#pragma unroll
      for (int j = 0; j < NB; j++)
        if (n0 + j < N) C[(long long)m * N + n0 + j] = acc[j];
    }
  }
}

extern "C" void gemm_tall_skinny(const float *A, const float *B, float *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  ts_row<<<(M + 127) / 128, 128>>>(A, B, C, M, N, K);
}
