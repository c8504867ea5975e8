// strategy: deliberately poor (bank-conflicted) - Blelloch up-sweep/down-sweep in shared memory without padding (strided indices conflict), 512-element tiles, recursive scan of tile totals
#include <cuda_runtime.h>

#define THREADS 256
#define TILE (2 * THREADS)

__global__ void blelloch_tile(const float *in, float *out, float *sums, int m) {
  __shared__ float s[TILE];
  int t = threadIdx.x;
  long long base = (long long)blockIdx.x * TILE;
  float x0 = (base + t < m) ? in[base + t] : 0.0f;
  float x1 = (base + t + THREADS < m) ? in[base + t + THREADS] : 0.0f;
  s[t] = x0;
  s[t + THREADS] = x1;
  // Up-sweep: index offset*(2t+1)-1 has a power-of-two stride between lanes.
  int offset = 1;
  for (int d = TILE >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      s[bi] += s[ai];
    }
    offset <<= 1;
  }
  __syncthreads();
  float total = s[TILE - 1];
  __syncthreads();
  if (t == 0) s[TILE - 1] = 0.0f;
  for (int d = 1; d < TILE; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      float a = s[ai];
      s[ai] = s[bi];
      s[bi] += a;
    }
  }
  __syncthreads();
  // Exclusive result plus the element itself gives the inclusive scan.
  if (base + t < m) out[base + t] = s[t] + x0;
  if (base + t + THREADS < m) out[base + t + THREADS] = s[t + THREADS] + x1;
  if (sums != 0 && t == 0) sums[blockIdx.x] = total;
}

__global__ void add_offsets(float *out, const float *scanned_sums, int m) {
  long long base = (long long)(blockIdx.x + 1) * TILE;
  float off = scanned_sums[blockIdx.x];
  for (int j = threadIdx.x; j < TILE; j += THREADS)
    if (base + j < m) out[base + j] += off;
}

static void scan_rec(const float *in, float *out, int m) {
  int tiles = (m + TILE - 1) / TILE;
  if (tiles == 1) {
    blelloch_tile<<<1, THREADS>>>(in, out, 0, m);
    return;
  }
  float *sums = 0;
  cudaMalloc(&sums, (size_t)tiles * sizeof(float));
  blelloch_tile<<<tiles, THREADS>>>(in, out, sums, m);
  scan_rec(sums, sums, tiles);
  add_offsets<<<tiles - 1, THREADS>>>(out, sums, m);
  cudaFree(sums);
}

extern "C" void inclusive_scan(const float *x, float *y, int n) {
  if (n <= 0) return;
  scan_rec(x, y, n);
}
