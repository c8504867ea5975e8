// strategy: shared-memory tiling - TILE x TILE tiles of A and B staged in shared memory (PAD extra columns against bank conflicts), one output per thread
// sweep: TILE = 8, 16, 32
// sweep: PAD = 0, 1
#include <cuda_runtime.h>

__global__ void dgemm_tiled(const double *A, const double *B, double *C, int M, int N, int K) {
  __shared__ double As[TILE][TILE + PAD];
  __shared__ double Bs[TILE][TILE + PAD];
  int tx = threadIdx.x, ty = threadIdx.y;
  int n = blockIdx.x * TILE + tx, m = blockIdx.y * TILE + ty;
  double acc = 0.0;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (m < M && k0 + tx < K) ? A[(long long)m * K + k0 + tx] : 0.0;
    Bs[ty][tx] = (k0 + ty < K && n < N) ? B[(long long)(k0 + ty) * N + n] : 0.0;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TILE; kk++) acc += As[ty][kk] * Bs[kk][tx];
    __syncthreads();
  }
  if (m < M && n < N) C[(long long)m * N + n] = acc;
}

extern "C" void matmul_fp64(const double *A, const double *B, double *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  dgemm_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
