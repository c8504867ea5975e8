// strategy: shared-memory tiling - TILE x TILE half tiles of A and B in shared memory, widened to float for the sums, one output per thread
// sweep: TILE = 8, 16, 32
#include <cuda_fp16.h>

__global__ void hgemm_tiled(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int n = blockIdx.x * TILE + tx, m = blockIdx.y * TILE + ty;
  const __half zero = __float2half(0.0f);
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (m < M && k0 + tx < K) ? A[(long long)m * K + k0 + tx] : zero;
    Bs[ty][tx] = (k0 + ty < K && n < N) ? B[(long long)(k0 + ty) * N + n] : zero;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TILE; kk++) acc += __half2float(As[ty][kk]) * __half2float(Bs[kk][tx]);
    __syncthreads();
  }
  if (m < M && n < N) C[(long long)m * N + n] = __float2half_rn(acc);
}

extern "C" void matmul_fp16(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  hgemm_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
