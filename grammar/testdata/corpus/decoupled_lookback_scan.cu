#include <cuda_runtime.h>
#include <cstdint>

// Single-pass inclusive scan with decoupled look-back (Merrill & Garland),
// simplified: each tile publishes (flag, value) packed in 64 bits.
enum : uint32_t { FLAG_INVALID = 0, FLAG_AGGREGATE = 1, FLAG_PREFIX = 2 };

__device__ __forceinline__ uint64_t pack(uint32_t flag, uint32_t value) { return ((uint64_t)flag << 32) | value; }

template <int BLOCK>
__global__ void scan_lookback(const uint32_t *in, uint32_t *out, unsigned long long *status, uint32_t *tile_counter,
                              int n) {
  __shared__ uint32_t s[BLOCK];
  __shared__ uint32_t tile_id_s, exclusive_s;
  if (threadIdx.x == 0) tile_id_s = atomicAdd(tile_counter, 1);
  __syncthreads();
  const uint32_t tile = tile_id_s;
  const int i = tile * BLOCK + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int d = 1; d < BLOCK; d <<= 1) {
    uint32_t v = threadIdx.x >= d ? s[threadIdx.x - d] : 0;
    __syncthreads();
    s[threadIdx.x] += v;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    uint32_t aggregate = s[BLOCK - 1];
    uint32_t exclusive = 0;
    if (tile == 0) {
      atomicExch(&status[0], pack(FLAG_PREFIX, aggregate));
    } else {
      atomicExch(&status[tile], pack(FLAG_AGGREGATE, aggregate));
      for (int p = (int)tile - 1; p >= 0;) {
        uint64_t st = atomicAdd(&status[p], 0ull);
        uint32_t flag = st >> 32;
        if (flag == FLAG_INVALID) continue;
        exclusive += (uint32_t)st;
        if (flag == FLAG_PREFIX) break;
        --p;
      }
      atomicExch(&status[tile], pack(FLAG_PREFIX, exclusive + aggregate));
    }
    exclusive_s = exclusive;
  }
  __syncthreads();
  if (i < n) out[i] = s[threadIdx.x] + exclusive_s;
}

void scan(const uint32_t *in, uint32_t *out, unsigned long long *status, uint32_t *counter, int n) {
  constexpr int B = 256;
  int tiles = (n + B - 1) / B;
  cudaMemset(status, 0, tiles * sizeof(unsigned long long));
  cudaMemset(counter, 0, sizeof(uint32_t));
  scan_lookback<B><<<tiles, B>>>(in, out, status, counter, n);
}
