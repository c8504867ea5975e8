// strategy: warp primitives + register blocking - reduce-then-scan: tile sums, recursive exclusive scan of the sums, then a tile scan of 4 items per thread with __shfl_up_sync seeded by the tile offset
#include <cuda_runtime.h>

#define THREADS 256
#define ITEMS 4
#define TILE (THREADS * ITEMS)
#define WARPS (THREADS / 32)

__device__ __forceinline__ int pad(int i) { return i + (i >> 5); }

__global__ void __launch_bounds__(THREADS) tile_sums(const int *__restrict__ in, int *__restrict__ sums, int m) {
  __shared__ int warp_tot[WARPS];
  long long base = (long long)blockIdx.x * TILE;
  int acc = 0;
  for (int k = 0; k < ITEMS; k++) {
    long long i = base + k * THREADS + threadIdx.x;
    if (i < m) acc += in[i];
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_tot[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < WARPS; w++) t += warp_tot[w];
    sums[blockIdx.x] = t;
  }
}

// Exclusive scan of one tile; offsets (exclusive scan of tile sums) may be null.
__global__ void __launch_bounds__(THREADS) tile_scan(const int *in, int *out, int m, const int *offsets) {
  __shared__ int s[TILE + TILE / 32];
  __shared__ int warp_tot[WARPS];
  long long base = (long long)blockIdx.x * TILE;
  for (int k = 0; k < ITEMS; k++) {
    int j = k * THREADS + threadIdx.x;
    s[pad(j)] = (base + j < m) ? in[base + j] : 0;
  }
  __syncthreads();
  int v[ITEMS];
  int run = 0;
  for (int k = 0; k < ITEMS; k++) {
    v[k] = run;  // exclusive within the thread
    run += s[pad(threadIdx.x * ITEMS + k)];
  }
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int incl = run;
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += t;
  }
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  int warp_off = 0;
  for (int w = 0; w < warp; w++) warp_off += warp_tot[w];
  int tile_off = offsets != 0 ? offsets[blockIdx.x] : 0;
  int thread_off = tile_off + warp_off + (incl - run);
  for (int k = 0; k < ITEMS; k++) s[pad(threadIdx.x * ITEMS + k)] = thread_off + v[k];
  __syncthreads();
  for (int k = 0; k < ITEMS; k++) {
    int j = k * THREADS + threadIdx.x;
    if (base + j < m) out[base + j] = s[pad(j)];
  }
}

static void scan_rec(const int *in, int *out, int m) {
  int tiles = (m + TILE - 1) / TILE;
  if (tiles == 1) {
    tile_scan<<<1, THREADS>>>(in, out, m, 0);
    return;
  }
  int *sums = 0;
  cudaMalloc(&sums, (size_t)tiles * sizeof(int));
  tile_sums<<<tiles, THREADS>>>(in, sums, m);
  scan_rec(sums, sums, tiles);  // a tile is fully read before it is written: in place is safe
  tile_scan<<<tiles, THREADS>>>(in, out, m, sums);
  cudaFree(sums);
}

extern "C" void exclusive_scan_int(const int *x, int *y, int n) {
  if (n <= 0) return;
  scan_rec(x, y, n);
}
