// strategy: deliberately poor (uncoalesced) - threadIdx.x runs along the rows of C, so a warp reads B by broadcast but A and C with a stride of K and N elements
#include <cuda_runtime.h>

__global__ void dgemm_rows(const double *A, const double *B, double *C, int M, int N, int K) {
  int m = blockIdx.x * blockDim.x + threadIdx.x, n = blockIdx.y * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  double acc = 0.0;
  for (int k = 0; k < K; k++) acc += A[(long long)m * K + k] * B[(long long)k * N + n];
  C[(long long)m * N + n] = acc;
}

extern "C" void matmul_fp64(const double *A, const double *B, double *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 block(32, 8), grid((M + 31) / 32, (N + 7) / 8);
  dgemm_rows<<<grid, block>>>(A, B, C, M, N, K);
}
