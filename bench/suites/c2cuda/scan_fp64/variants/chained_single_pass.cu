// strategy: single pass (chained scan) - tiles numbered by an atomic ticket in launch order; each block scans its tile, waits for the previous tile's published inclusive prefix (flag + __threadfence), publishes its own, then writes: one read and one write per element
#include <cuda_runtime.h>

#define THREADS 256
#define ITEMS 4
#define TILE (THREADS * ITEMS)

// block_scan turns each thread's ITEMS consecutive values into their
// inclusive scan over the whole tile; wt (shared, 8 entries) ends holding
// the inclusive warp totals, wt[7] the tile's sum.
__device__ void block_scan(double v[ITEMS], double *wt) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int k = 1; k < ITEMS; k++) v[k] += v[k - 1];
  double s = v[ITEMS - 1];
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    double o = __shfl_up_sync(0xffffffffu, s, off);
    if (lane >= off) s += o;
  }
  if (lane == 31) wt[warp] = s;
  __syncthreads();
  if (warp == 0) {
    double w = lane < THREADS / 32 ? wt[lane] : 0.0;
#pragma unroll
    for (int off = 1; off < THREADS / 32; off <<= 1) {
      double o = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += o;
    }
    if (lane < THREADS / 32) wt[lane] = w;
  }
  __syncthreads();
  double excl = s - v[ITEMS - 1] + (warp > 0 ? wt[warp - 1] : 0.0);
#pragma unroll
  for (int k = 0; k < ITEMS; k++) v[k] += excl;
}

__global__ void scan_chained(const double *x, double *out, long long n, int *ticket, volatile int *flags,
                             volatile double *prefix) {
  __shared__ double wt[THREADS / 32];
  __shared__ int tile_s;
  __shared__ double carry_s;
  if (threadIdx.x == 0) tile_s = atomicAdd(ticket, 1);
  __syncthreads();
  int tile = tile_s;  // blocks with lower tickets started earlier, so waiting on them cannot deadlock
  long long base = (long long)tile * TILE + threadIdx.x * ITEMS;
  double v[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; k++) v[k] = base + k < n ? x[base + k] : 0.0;
  block_scan(v, wt);
  if (threadIdx.x == 0) {
    double prev = 0.0;
    if (tile > 0) {
      while (flags[tile - 1] == 0) {
      }
      __threadfence();
      prev = prefix[tile - 1];
    }
    prefix[tile] = prev + wt[THREADS / 32 - 1];
    __threadfence();
    flags[tile] = 1;
    carry_s = prev;
  }
  __syncthreads();
  double c = carry_s;
#pragma unroll
  for (int k = 0; k < ITEMS; k++)
    if (base + k < n) out[base + k] = v[k] + c;
}

extern "C" void scan_fp64(const double *x, double *out, int n) {
  if (n <= 0) return;
  long long tiles = ((long long)n + TILE - 1) / TILE;
  double *prefix = nullptr;
  int *flags = nullptr;
  if (cudaMalloc(&prefix, sizeof(double) * (size_t)tiles) != cudaSuccess) return;
  if (cudaMalloc(&flags, sizeof(int) * (size_t)(tiles + 1)) != cudaSuccess) {
    cudaFree(prefix);
    return;
  }
  cudaMemsetAsync(flags, 0, sizeof(int) * (size_t)(tiles + 1), 0);
  scan_chained<<<(unsigned)tiles, THREADS>>>(x, out, n, flags + tiles, flags, prefix);
  cudaFree(flags);
  cudaFree(prefix);
}
