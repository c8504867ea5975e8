// strategy: deliberately poor (atomics-heavy) - every element does a global atomicMax on one order-preserving integer image of the float
#include <cuda_runtime.h>
#include <limits.h>

// Signed-int image of a float that preserves order for non-NaN values
// (negative floats have their magnitude bits flipped). It is its own inverse.
__device__ __forceinline__ int ordered(int bits) { return bits >= 0 ? bits : bits ^ 0x7fffffff; }

__global__ void init_max(int *m) { *m = INT_MIN; }

__global__ void atomic_max_all(const float *x, int *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(m, ordered(__float_as_int(x[i])));
}

__global__ void store_max(const int *m, float *out) { out[0] = __int_as_float(ordered(*m)); }

extern "C" void max_reduce(const float *x, float *out, int n) {
  if (n <= 0) return;
  int *m = 0;
  cudaMalloc(&m, sizeof(int));
  init_max<<<1, 1>>>(m);
  const int threads = 256;
  atomic_max_all<<<(n + threads - 1) / threads, threads>>>(x, m, n);
  store_max<<<1, 1>>>(m, out);
  cudaFree(m);
}
