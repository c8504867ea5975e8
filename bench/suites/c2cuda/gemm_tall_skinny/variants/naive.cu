// strategy: naive - one thread per output element, every operand read from global memory
#include <cuda_runtime.h>

__global__ void ts_naive(const float *A, const float *B, float *C, int M, int N, int K) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (long long)M * N) return;
  int m = (int)(i / N), n = (int)(i % N);
  float acc = 0.0f;
  for (int k = 0; k < K; k++) acc += A[(long long)m * K + k] * B[(long long)k * N + n];
  C[i] = acc;
}

extern "C" void gemm_tall_skinny(const float *A, const float *B, float *C, int M, int N, int K) {
  long long total = (long long)M * N;
  if (total <= 0) return;
  ts_naive<<<(unsigned)((total + 255) / 256), 256>>>(A, B, C, M, N, K);
}
