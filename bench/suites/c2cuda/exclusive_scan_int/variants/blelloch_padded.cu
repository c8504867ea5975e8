// strategy: shared-memory tiling - work-efficient Blelloch up-sweep/down-sweep with conflict-free padding (one word per 32), 1024-element tiles, recursive scan of tile totals
#include <cuda_runtime.h>

#define THREADS 512
#define TILE (2 * THREADS)
#define PAD(i) ((i) + ((i) >> 5))

__global__ void blelloch_tile(const int *in, int *out, int *sums, int m) {
  __shared__ int s[TILE + TILE / 32];
  int t = threadIdx.x;
  long long base = (long long)blockIdx.x * TILE;
  s[PAD(t)] = (base + t < m) ? in[base + t] : 0;
  s[PAD(t + THREADS)] = (base + t + THREADS < m) ? in[base + t + THREADS] : 0;
  int offset = 1;
  for (int d = TILE >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      s[PAD(bi)] += s[PAD(ai)];
    }
    offset <<= 1;
  }
  __syncthreads();
  if (t == 0) {
    if (sums != 0) sums[blockIdx.x] = s[PAD(TILE - 1)];
    s[PAD(TILE - 1)] = 0;
  }
  for (int d = 1; d < TILE; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      int a = s[PAD(ai)];
      s[PAD(ai)] = s[PAD(bi)];
      s[PAD(bi)] += a;
    }
  }
  __syncthreads();
  if (base + t < m) out[base + t] = s[PAD(t)];
  if (base + t + THREADS < m) out[base + t + THREADS] = s[PAD(t + THREADS)];
}

__global__ void add_offsets(int *out, const int *scanned_sums, int m) {
  long long base = (long long)(blockIdx.x + 1) * TILE;
  int off = scanned_sums[blockIdx.x + 1];
  for (int j = threadIdx.x; j < TILE; j += THREADS)
    if (base + j < m) out[base + j] += off;
}

static void scan_rec(const int *in, int *out, int m) {
  int tiles = (m + TILE - 1) / TILE;
  if (tiles == 1) {
    blelloch_tile<<<1, THREADS>>>(in, out, 0, m);
    return;
  }
  int *sums = 0;
  cudaMalloc(&sums, (size_t)tiles * sizeof(int));
  blelloch_tile<<<tiles, THREADS>>>(in, out, sums, m);
  scan_rec(sums, sums, tiles);  // exclusive: sums[b] = total of tiles before b
  add_offsets<<<tiles - 1, THREADS>>>(out, sums, m);
  cudaFree(sums);
}

extern "C" void exclusive_scan_int(const int *x, int *y, int n) {
  if (n <= 0) return;
  scan_rec(x, y, n);
}
