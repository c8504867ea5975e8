// strategy: deliberately poor (grid smaller than the SM count) - one 1024-thread block walks the array tile by tile, scanning each tile with warp shuffles and carrying the running total
#include <cuda_runtime.h>

#define THREADS 1024
#define WARPS (THREADS / 32)

__global__ void scan_one_block(const int *x, int *y, int n) {
  __shared__ int warp_tot[WARPS];
  __shared__ int carry_s;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) carry_s = 0;
  __syncthreads();
  for (long long base = 0; base < n; base += THREADS) {
    long long i = base + threadIdx.x;
    int x0 = (i < n) ? x[i] : 0;
    int v = x0;
    for (int off = 1; off < 32; off <<= 1) {
      int t = __shfl_up_sync(0xffffffffu, v, off);
      if (lane >= off) v += t;
    }
    if (lane == 31) warp_tot[warp] = v;
    __syncthreads();
    if (warp == 0) {
      int w = warp_tot[lane];
      for (int off = 1; off < 32; off <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, w, off);
        if (lane >= off) w += t;
      }
      warp_tot[lane] = w;
    }
    __syncthreads();
    int carry = carry_s;
    if (i < n) y[i] = carry + (warp > 0 ? warp_tot[warp - 1] : 0) + v - x0;
    __syncthreads();
    if (threadIdx.x == THREADS - 1) carry_s = carry + warp_tot[WARPS - 1];
    __syncthreads();
  }
}

extern "C" void exclusive_scan_int(const int *x, int *y, int n) {
  if (n <= 0) return;
  scan_one_block<<<1, THREADS>>>(x, y, n);
}
