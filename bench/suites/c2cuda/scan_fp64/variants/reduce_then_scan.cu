// strategy: reduce-then-scan - three kernels: per-tile sums, one block scanning the tile sums, then every tile scanned again with its offset added (about 3 passes over memory, launches and a scratch array)
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

__global__ void tile_sums(const double *x, double *sums, long long n) {
  __shared__ double wt[THREADS / 32];
  long long base = (long long)blockIdx.x * TILE + threadIdx.x * ITEMS;
  double v[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; k++) v[k] = base + k < n ? x[base + k] : 0.0;
  block_scan(v, wt);
  if (threadIdx.x == 0) sums[blockIdx.x] = wt[THREADS / 32 - 1];
}

// scan_serial_tiles: one block scans m values tile after tile, carrying the total.
__global__ void scan_serial_tiles(const double *in, double *out, long long m) {
  __shared__ double wt[THREADS / 32];
  double carry = 0.0;
  for (long long t0 = 0; t0 < m; t0 += TILE) {
    long long base = t0 + threadIdx.x * ITEMS;
    double v[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; k++) v[k] = base + k < m ? in[base + k] : 0.0;
    block_scan(v, wt);
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
      if (base + k < m) out[base + k] = v[k] + carry;
    carry += wt[THREADS / 32 - 1];
    __syncthreads();  // wt is rewritten by the next tile
  }
}

__global__ void scan_add(const double *x, double *out, const double *incl, long long n) {
  __shared__ double wt[THREADS / 32];
  long long base = (long long)blockIdx.x * TILE + threadIdx.x * ITEMS;
  double v[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; k++) v[k] = base + k < n ? x[base + k] : 0.0;
  block_scan(v, wt);
  double off = blockIdx.x > 0 ? incl[blockIdx.x - 1] : 0.0;
#pragma unroll
  for (int k = 0; k < ITEMS; k++)
    if (base + k < n) out[base + k] = v[k] + off;
}

extern "C" void scan_fp64(const double *x, double *out, int n) {
  if (n <= 0) return;
  long long tiles = ((long long)n + TILE - 1) / TILE;
  double *sums = nullptr;
  if (cudaMalloc(&sums, sizeof(double) * 2 * (size_t)tiles) != cudaSuccess) return;
  double *incl = sums + tiles;
  tile_sums<<<(unsigned)tiles, THREADS>>>(x, sums, n);
  scan_serial_tiles<<<1, THREADS>>>(sums, incl, tiles);
  scan_add<<<(unsigned)tiles, THREADS>>>(x, out, incl, n);
  cudaFree(sums);
}
