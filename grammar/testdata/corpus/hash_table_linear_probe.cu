#include <cuda_runtime.h>
#include <cstdint>

// Open-addressing hash table with linear probing (keys and values as 32-bit).
constexpr uint32_t kEmpty = 0xffffffffu;

struct KeyValue {
  uint32_t key;
  uint32_t value;
};

__device__ __host__ __forceinline__ uint32_t hash32(uint32_t k) {
  k ^= k >> 16;
  k *= 0x85ebca6b;
  k ^= k >> 13;
  k *= 0xc2b2ae35;
  k ^= k >> 16;
  return k;
}

__global__ void gpu_hashtable_insert(KeyValue *hashtable, uint32_t capacity, const KeyValue *kvs,
                                     unsigned int numkvs) {
  unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= numkvs) return;
  uint32_t key = kvs[tid].key;
  uint32_t value = kvs[tid].value;
  uint32_t slot = hash32(key) & (capacity - 1);
  while (true) {
    uint32_t prev = atomicCAS(&hashtable[slot].key, kEmpty, key);
    if (prev == kEmpty || prev == key) {
      hashtable[slot].value = value;
      return;
    }
    slot = (slot + 1) & (capacity - 1);
  }
}

__global__ void gpu_hashtable_lookup(const KeyValue *hashtable, uint32_t capacity, KeyValue *kvs,
                                     unsigned int numkvs) {
  unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= numkvs) return;
  uint32_t key = kvs[tid].key;
  uint32_t slot = hash32(key) & (capacity - 1);
  for (;;) {
    if (hashtable[slot].key == key) {
      kvs[tid].value = hashtable[slot].value;
      return;
    }
    if (hashtable[slot].key == kEmpty) {
      kvs[tid].value = kEmpty;
      return;
    }
    slot = (slot + 1) & (capacity - 1);
  }
}

void insert(KeyValue *table, uint32_t capacity, const KeyValue *kvs, unsigned n) {
  int mingridsize, threadblocksize;
  cudaOccupancyMaxPotentialBlockSize(&mingridsize, &threadblocksize, gpu_hashtable_insert, 0, 0);
  int gridsize = ((uint32_t)n + threadblocksize - 1) / threadblocksize;
  gpu_hashtable_insert<<<gridsize, threadblocksize>>>(table, capacity, kvs, n);
}
