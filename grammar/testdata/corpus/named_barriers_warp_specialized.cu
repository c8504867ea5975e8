#include <cuda_runtime.h>

// Warp specialization: warp 0 produces tiles into shared memory, warps 1..3
// consume them; producer and consumers meet at named barriers (bar.sync id, n)
// so that the other warps are not held.
__device__ __forceinline__ void named_barrier_sync(int id, int nthreads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(nthreads) : "memory");
}
__device__ __forceinline__ void named_barrier_arrive(int id, int nthreads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(nthreads) : "memory");
}

constexpr int kTile = 96;

__global__ void __launch_bounds__(128) produce_consume(const float *in, float *out, int ntiles) {
  __shared__ float buf[kTile];
  const int warp = threadIdx.x / 32;
  for (int t = 0; t < ntiles; ++t) {
    if (warp == 0) {
      for (int i = threadIdx.x; i < kTile; i += 32) buf[i] = in[t * kTile + i];
      named_barrier_arrive(1, 128);  // data ready
      named_barrier_sync(2, 128);    // wait until consumed
    } else {
      named_barrier_sync(1, 128);
      int i = threadIdx.x - 32;
      out[t * kTile + i] = buf[i] * 2.0f;
      named_barrier_arrive(2, 128);
    }
  }
}
