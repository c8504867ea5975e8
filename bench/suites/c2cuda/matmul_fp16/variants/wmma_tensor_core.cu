// strategy: tensor cores (WMMA) - four warps per 32x32 tile of C, 16-deep slices of A and B staged zero-padded in shared memory, 16x16x16 half MMAs with float accumulators
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define LDA 24  // halves per row of As: a multiple of 8, as load_matrix_sync needs
#define LDB 40
#define LDC 20  // floats per row of Cs: a multiple of 4

__global__ void hgemm_wmma(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  __shared__ __align__(32) __half As[32][LDA];
  __shared__ __align__(32) __half Bs[16][LDB];
  __shared__ __align__(32) float Cs[4][16][LDC];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wr = warp / 2, wc = warp % 2;
  int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
  const __half zero = __float2half(0.0f);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = threadIdx.x; i < 32 * 16; i += 128) {
      int r = i / 16, c = i % 16;
      As[r][c] = (m0 + r < M && k0 + c < K) ? A[(long long)(m0 + r) * K + k0 + c] : zero;
    }
    for (int i = threadIdx.x; i < 16 * 32; i += 128) {
      int r = i / 32, c = i % 32;
      Bs[r][c] = (k0 + r < K && n0 + c < N) ? B[(long long)(k0 + r) * N + n0 + c] : zero;
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::load_matrix_sync(a, &As[wr * 16][0], LDA);
    wmma::load_matrix_sync(b, &Bs[0][wc * 16], LDB);
    wmma::mma_sync(acc, a, b, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(&Cs[warp][0][0], acc, LDC, wmma::mem_row_major);
  __syncwarp();
  for (int i = lane; i < 256; i += 32) {
    int r = i / 16, c = i % 16, m = m0 + wr * 16 + r, n = n0 + wc * 16 + c;
    if (m < M && n < N) C[(long long)m * N + n] = __float2half_rn(Cs[warp][r][c]);
  }
}

extern "C" void matmul_fp16(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 grid((N + 31) / 32, (M + 31) / 32);
  hgemm_wmma<<<grid, 128>>>(A, B, C, M, N, K);
}
