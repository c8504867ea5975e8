// strategy: deliberately poor (serialized single pass) - chained scan: blocks take tickets in launch order and each waits for its predecessor's published prefix, so tiles finish one after another
#include <cuda_runtime.h>

#define THREADS 256
#define ITEMS 8
#define TILE (THREADS * ITEMS)
#define WARPS (THREADS / 32)
#define READY (1ULL << 32)

// status[t] packs (READY | inclusive prefix of tiles 0..t) in one 64-bit word,
// written with one atomic, so no separate flag/value ordering is needed.
__global__ void chained_scan(const int *x, int *y, int n, unsigned *ticket, unsigned long long *status) {
  __shared__ int warp_tot[WARPS];
  __shared__ int tile_id_s, prefix_s;
  if (threadIdx.x == 0) tile_id_s = (int)atomicAdd(ticket, 1u);
  __syncthreads();
  int tile = tile_id_s;
  long long base = (long long)tile * TILE + (long long)threadIdx.x * ITEMS;
  int v[ITEMS];
  int run = 0;
  for (int k = 0; k < ITEMS; k++) {
    v[k] = run;
    run += (base + k < n) ? x[base + k] : 0;
  }
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int incl = run;
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += t;
  }
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < WARPS; w++) total += warp_tot[w];
    int prefix = 0;
    if (tile > 0) {
      // The predecessor took its ticket earlier, so it is running or done: this wait ends.
      volatile unsigned long long *st = status + (tile - 1);
      unsigned long long s;
      do {
        s = *st;
      } while (!(s & READY));
      prefix = (int)(unsigned)(s & 0xffffffffULL);
    }
    atomicExch(status + tile, READY | (unsigned)(prefix + total));
    prefix_s = prefix;
  }
  __syncthreads();
  int warp_off = 0;
  for (int w = 0; w < warp; w++) warp_off += warp_tot[w];
  int off = prefix_s + warp_off + (incl - run);
  for (int k = 0; k < ITEMS; k++)
    if (base + k < n) y[base + k] = off + v[k];
}

extern "C" void exclusive_scan_int(const int *x, int *y, int n) {
  if (n <= 0) return;
  int tiles = (n + TILE - 1) / TILE;
  unsigned long long *status = 0;
  unsigned *ticket = 0;
  cudaMalloc(&status, (size_t)tiles * sizeof(unsigned long long) + 16);
  ticket = (unsigned *)(status + tiles);
  cudaMemsetAsync(status, 0, (size_t)tiles * sizeof(unsigned long long) + 16, 0);
  chained_scan<<<tiles, THREADS>>>(x, y, n, ticket, status);
  cudaFree(status);
}
