#include <cuda_runtime.h>

// C = A * B with A sparse (CSR, M x K) and B dense row-major (K x N):
// a warp per row of A, lanes stride over the columns of B.
__global__ void spmm_csr_rowwarp(int M, int N, const int *__restrict__ rowptr, const int *__restrict__ colidx,
                                 const float *__restrict__ vals, const float *__restrict__ B, float *__restrict__ C) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (row >= M) return;
  int start = rowptr[row], end = rowptr[row + 1];
  for (int col = lane; col < N; col += 32) {
    float acc = 0.f;
    for (int p = start; p < end; ++p) acc += vals[p] * B[(size_t)colidx[p] * N + col];
    C[(size_t)row * N + col] = acc;
  }
}

void spmm(int M, int N, const int *rowptr, const int *colidx, const float *vals, const float *B, float *C) {
  int warps = 4;
  spmm_csr_rowwarp<<<(M + warps - 1) / warps, warps * 32>>>(M, N, rowptr, colidx, vals, B, C);
}
