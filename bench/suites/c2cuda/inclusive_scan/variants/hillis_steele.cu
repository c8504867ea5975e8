// strategy: naive - Hillis-Steele scan in double-buffered shared memory (O(n log n) adds, one element per thread, 1024-thread tiles), recursive scan of tile totals, then an add-offsets pass
#include <cuda_runtime.h>

#define THREADS 1024

__global__ void hs_tile_scan(const float *in, float *out, float *sums, int m) {
  __shared__ float buf[2][THREADS];
  int t = threadIdx.x;
  long long i = (long long)blockIdx.x * THREADS + t;
  int cur = 0;
  buf[0][t] = (i < m) ? in[i] : 0.0f;
  __syncthreads();
  for (int off = 1; off < THREADS; off <<= 1) {
    float v = buf[cur][t];
    if (t >= off) v += buf[cur][t - off];
    buf[cur ^ 1][t] = v;
    cur ^= 1;
    __syncthreads();
  }
  if (i < m) out[i] = buf[cur][t];
  if (sums != 0 && t == THREADS - 1) sums[blockIdx.x] = buf[cur][t];
}

__global__ void add_offsets(float *out, const float *scanned_sums, int m) {
  long long i = (long long)(blockIdx.x + 1) * THREADS + threadIdx.x;  // tile 0 needs no offset
  if (i < m) out[i] += scanned_sums[blockIdx.x];
}

static void scan_rec(const float *in, float *out, int m) {
  int tiles = (m + THREADS - 1) / THREADS;
  if (tiles == 1) {
    hs_tile_scan<<<1, THREADS>>>(in, out, 0, m);
    return;
  }
  float *sums = 0;
  cudaMalloc(&sums, (size_t)tiles * sizeof(float));
  hs_tile_scan<<<tiles, THREADS>>>(in, out, sums, m);
  scan_rec(sums, sums, tiles);
  add_offsets<<<tiles - 1, THREADS>>>(out, sums, m);
  cudaFree(sums);
}

extern "C" void inclusive_scan(const float *x, float *y, int n) {
  if (n <= 0) return;
  scan_rec(x, y, n);
}
