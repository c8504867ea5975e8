// strategy: naive - one thread per output, threadIdx.x along the columns of C so B and C accesses coalesce
#include <cuda_runtime.h>

__global__ void dgemm_naive(const double *A, const double *B, double *C, int M, int N, int K) {
  int n = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  double acc = 0.0;
  for (int k = 0; k < K; k++) acc += A[(long long)m * K + k] * B[(long long)k * N + n];
  C[(long long)m * N + n] = acc;
}

extern "C" void matmul_fp64(const double *A, const double *B, double *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
  dgemm_naive<<<grid, block>>>(A, B, C, M, N, K);
}
