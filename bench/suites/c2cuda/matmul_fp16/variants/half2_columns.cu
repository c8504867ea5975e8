// strategy: vectorized loads - each thread computes two adjacent columns, reading B as __half2 (when N is even, so rows stay 4-byte aligned), float accumulators
#include <cuda_fp16.h>

__global__ void hgemm_half2(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  int n = 2 * (blockIdx.x * blockDim.x + threadIdx.x), m = blockIdx.y * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  float acc0 = 0.0f, acc1 = 0.0f;
  const __half *a = A + (long long)m * K;
  if ((N & 1) == 0) {
    for (int k = 0; k < K; k++) {
      float av = __half2float(a[k]);
      float2 b = __half22float2(*reinterpret_cast<const __half2 *>(B + (long long)k * N + n));
      acc0 += av * b.x;
      acc1 += av * b.y;
    }
  } else {
    for (int k = 0; k < K; k++) {
      float av = __half2float(a[k]);
      acc0 += av * __half2float(B[(long long)k * N + n]);
      if (n + 1 < N) acc1 += av * __half2float(B[(long long)k * N + n + 1]);
    }
  }
  C[(long long)m * N + n] = __float2half_rn(acc0);
  if (n + 1 < N) C[(long long)m * N + n + 1] = __float2half_rn(acc1);
}

extern "C" void matmul_fp16(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  int pairs = (N + 1) / 2;
  dim3 block(32, 8), grid((pairs + 31) / 32, (M + 7) / 8);
  hgemm_half2<<<grid, block>>>(A, B, C, M, N, K);
}
