// strategy: naive - Hillis-Steele scan in double-buffered shared memory (O(n log n) adds, one element per thread, 1024-thread tiles), recursive scan of tile totals, add-offsets pass
#include <cuda_runtime.h>

#define THREADS 1024

// Exclusive scan of each tile; sums[b] receives the tile total when sums is non-null.
__global__ void hs_tile_scan(const int *in, int *out, int *sums, int m) {
  __shared__ int buf[2][THREADS];
  int t = threadIdx.x;
  long long i = (long long)blockIdx.x * THREADS + t;
  int x = (i < m) ? in[i] : 0;
  int cur = 0;
  buf[0][t] = x;
  __syncthreads();
  for (int off = 1; off < THREADS; off <<= 1) {
    int v = buf[cur][t];
    if (t >= off) v += buf[cur][t - off];
    buf[cur ^ 1][t] = v;
    cur ^= 1;
    __syncthreads();
  }
  int incl = buf[cur][t];
  if (i < m) out[i] = incl - x;
  if (sums != 0 && t == THREADS - 1) sums[blockIdx.x] = incl;
}

__global__ void add_offsets(int *out, const int *scanned_sums, int m) {
  long long i = (long long)(blockIdx.x + 1) * THREADS + threadIdx.x;
  if (i < m) out[i] += scanned_sums[blockIdx.x + 1];
}

static void scan_rec(const int *in, int *out, int m) {
  int tiles = (m + THREADS - 1) / THREADS;
  if (tiles == 1) {
    hs_tile_scan<<<1, THREADS>>>(in, out, 0, m);
    return;
  }
  int *sums = 0;
  cudaMalloc(&sums, (size_t)tiles * sizeof(int));
  hs_tile_scan<<<tiles, THREADS>>>(in, out, sums, m);
  scan_rec(sums, sums, tiles);  // now sums[b] = total of tiles before b
  add_offsets<<<tiles - 1, THREADS>>>(out, sums, m);
  cudaFree(sums);
}

extern "C" void exclusive_scan_int(const int *x, int *y, int n) {
  if (n <= 0) return;
  scan_rec(x, y, n);
}
