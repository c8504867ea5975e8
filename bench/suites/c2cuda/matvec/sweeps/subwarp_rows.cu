// strategy: sub-warp per row - G lanes (a power of two up to 32) share one row of A, VEC-float loads of A and x when rows are VEC-aligned, ACC accumulators per lane, width-G __shfl_down_sync reduction, BLOCK threads per block
// sweep: G = 4, 8, 16, 32
// sweep: BLOCK = 64, 128, 256, 512
// sweep: VEC = 1, 2, 4
// sweep: ACC = 1, 2
#include <cuda_runtime.h>

typedef struct __align__(4 * VEC) {
  float v[VEC];
} seg_t;

__global__ void __launch_bounds__(BLOCK) matvec_subwarp(const float *__restrict__ A, const float *__restrict__ x,
                                                        float *__restrict__ y, int M, int N) {
  const long long row = ((long long)blockIdx.x * BLOCK + threadIdx.x) / G;
  const int lane = threadIdx.x % G;
  // Whole warps stay converged for the shuffles; rows past M compute nothing.
  const bool ok = row < M;
  const float *a = A + (ok ? row : 0) * (long long)N;
  const int segs = (N % VEC == 0) ? N / VEC : 0;
  float acc[ACC];
#pragma unroll
  for (int q = 0; q < ACC; q++) acc[q] = 0.0f;
  if (ok) {
    int s = lane;
    for (; s + (ACC - 1) * G < segs; s += ACC * G) {
#pragma unroll
      for (int q = 0; q < ACC; q++) {
        seg_t av = ((const seg_t *)a)[s + q * G], xv = ((const seg_t *)x)[s + q * G];
#pragma unroll
        for (int e = 0; e < VEC; e++) acc[q] = fmaf(av.v[e], xv.v[e], acc[q]);
      }
    }
    for (; s < segs; s += G) {
      seg_t av = ((const seg_t *)a)[s], xv = ((const seg_t *)x)[s];
#pragma unroll
      for (int e = 0; e < VEC; e++) acc[0] = fmaf(av.v[e], xv.v[e], acc[0]);
    }
    for (int c = segs * VEC + lane; c < N; c += G) acc[0] = fmaf(a[c], x[c], acc[0]);
  }
  float sum = 0.0f;
#pragma unroll
  for (int q = 0; q < ACC; q++) sum += acc[q];
#pragma unroll
  for (int off = G / 2; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off, G);
  if (ok && lane == 0) y[row] = sum;
}

extern "C" void matvec(const float *A, const float *x, float *y, int M, int N) {
  if (M <= 0) return;
  long long threads = (long long)M * G;
  matvec_subwarp<<<(unsigned)((threads + BLOCK - 1) / BLOCK), BLOCK>>>(A, x, y, M, N);
}
