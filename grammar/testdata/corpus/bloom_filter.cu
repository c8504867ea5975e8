#include <cuda_runtime.h>
#include <cstdint>

template <int K>
struct BloomFilter {
  uint32_t *bits;
  uint32_t num_bits;

  __device__ static uint32_t mix(uint64_t x, uint32_t seed) {
    x ^= seed * 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return static_cast<uint32_t>(x ^ (x >> 31));
  }

  __device__ void add(uint64_t key) {
#pragma unroll
    for (int i = 0; i < K; ++i) {
      uint32_t b = mix(key, i) % num_bits;
      atomicOr(&bits[b / 32], 1u << (b % 32));
    }
  }

  __device__ bool maybe_contains(uint64_t key) const {
#pragma unroll
    for (int i = 0; i < K; ++i) {
      uint32_t b = mix(key, i) % num_bits;
      if (!(bits[b / 32] & (1u << (b % 32)))) return false;
    }
    return true;
  }
};

template <int K>
__global__ void bloom_build(BloomFilter<K> f, const uint64_t *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f.add(keys[i]);
}

template <int K>
__global__ void bloom_query(BloomFilter<K> f, const uint64_t *keys, uint8_t *hits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) hits[i] = f.maybe_contains(keys[i]);
}

void build_and_query(uint32_t *bits, uint32_t nbits, const uint64_t *keys, int n, uint8_t *hits) {
  BloomFilter<7> f{bits, nbits};
  bloom_build<7><<<(n + 255) / 256, 256>>>(f, keys, n);
  bloom_query<7><<<(n + 255) / 256, 256>>>(f, keys, hits, n);
}
