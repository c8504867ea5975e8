// strategy: register blocking, 128x128 block tile with BK=8, each of 256 threads accumulates an 8x8 sub-tile in registers (64 FMAs per 16 shared loads)
#include <cuda_runtime.h>

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

__global__ void __launch_bounds__(256) matmul_rb8_kernel(const float *A, const float *B, float *C, int M, int N, int K) {
    __shared__ float As[BK][BM];   // A tile stored transposed: As[k][m]
    __shared__ float Bs[BK][BN];
    int t = threadIdx.x;
    int tx = t % 16, ty = t / 16;
    int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int l = 0; l < (BM * BK) / 256; l++) {
            int idx = t + l * 256;
            int r = idx / BK, kk = idx % BK;
            int gr = bm + r, gk = k0 + kk;
            As[kk][r] = (gr < M && gk < K) ? A[(size_t)gr * K + gk] : 0.0f;
        }
#pragma unroll
        for (int l = 0; l < (BK * BN) / 256; l++) {
            int idx = t + l * 256;
            int kk = idx / BN, c = idx % BN;
            int gk = k0 + kk, gc = bn + c;
            Bs[kk][c] = (gk < K && gc < N) ? B[(size_t)gk * N + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            float a[TM], b[TN];
            // Rows ty+16i and columns tx+16j: a warp's B reads hit 16
            // consecutive words (no bank conflict) and A reads broadcast.
#pragma unroll
            for (int i = 0; i < TM; i++) a[i] = As[kk][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < TN; j++) b[j] = Bs[kk][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int r = bm + ty + 16 * i;
        if (r >= M) continue;
#pragma unroll
        for (int j = 0; j < TN; j++) {
            int c = bn + tx + 16 * j;
            if (c < N) C[(size_t)r * N + c] = acc[i][j];
        }
    }
}

extern "C" void matmul_fp32(const float *A, const float *B, float *C, int M, int N, int K) {
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    matmul_rb8_kernel<<<grid, 256>>>(A, B, C, M, N, K);
}
