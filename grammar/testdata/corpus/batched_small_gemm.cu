#include <cuda_runtime.h>

// Many small (N x N, N <= 32) GEMMs, one block per matrix, everything in
// shared memory. Strided batch layout.
template <int N>
__global__ void batched_gemm_small(const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C,
                                   long strideA, long strideB, long strideC) {
  __shared__ double sA[N][N + 1];
  __shared__ double sB[N][N + 1];
  const double *a = A + blockIdx.x * strideA;
  const double *b = B + blockIdx.x * strideB;
  double *c = C + blockIdx.x * strideC;
  int tx = threadIdx.x, ty = threadIdx.y;
  sA[ty][tx] = a[ty * N + tx];
  sB[ty][tx] = b[ty * N + tx];
  __syncthreads();
  double acc = 0.0;
#pragma unroll
  for (int k = 0; k < N; ++k) acc += sA[ty][k] * sB[k][tx];
  c[ty * N + tx] = acc;
}

void batched_gemm(int n, int batch, const double *A, const double *B, double *C) {
  switch (n) {
    case 8:
      batched_gemm_small<8><<<batch, dim3(8, 8)>>>(A, B, C, 64, 64, 64);
      break;
    case 16:
      batched_gemm_small<16><<<batch, dim3(16, 16)>>>(A, B, C, 256, 256, 256);
      break;
    default:
      batched_gemm_small<32><<<batch, dim3(32, 32)>>>(A, B, C, 1024, 1024, 1024);
  }
}
