// strategy: deliberately poor (atomics-heavy) - every product is atomicAdd-ed into its warp's shared-memory slot (32 lanes contend for one address), block partials reduced by a second kernel
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)
#define PER_THREAD 16

__global__ void partial_atomic(const float *a, const float *b, float *part, int n) {
  __shared__ float slot[WARPS];
  int warp = threadIdx.x >> 5;
  if ((threadIdx.x & 31) == 0) slot[warp] = 0.0f;
  __syncthreads();
  long long base = (long long)blockIdx.x * THREADS * PER_THREAD;
  for (int k = 0; k < PER_THREAD; k++) {
    long long i = base + (long long)k * THREADS + threadIdx.x;
    if (i < n) atomicAdd(&slot[warp], a[i] * b[i]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float acc = 0.0f;
    for (int w = 0; w < WARPS; w++) acc += slot[w];
    part[blockIdx.x] = acc;
  }
}

__global__ void final_tree(const float *part, float *out, int m) {
  __shared__ float s[THREADS];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < m; i += THREADS) acc += part[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[0] = s[0];
}

extern "C" void dot_product(const float *a, const float *b, float *out, int n) {
  if (n <= 0) return;
  const long long per_block = (long long)THREADS * PER_THREAD;
  int blocks = (int)((n + per_block - 1) / per_block);
  if (blocks == 1) {
    partial_atomic<<<1, THREADS>>>(a, b, out, n);
    return;
  }
  float *part = 0;
  cudaMalloc(&part, (size_t)blocks * sizeof(float));
  partial_atomic<<<blocks, THREADS>>>(a, b, part, n);
  final_tree<<<1, THREADS>>>(part, out, blocks);
  cudaFree(part);
}
