// strategy: warp primitives + vectorized loads - WAVES blocks per SM of BLOCK threads, grid-stride VEC-float loads into ACC independent accumulators, __shfl_down_sync block reduction to one partial per block, one-block final pass
// sweep: BLOCK = 128, 256, 512, 1024
// sweep: VEC = 1, 2, 4
// sweep: ACC = 1, 2, 4
// sweep: WAVES = 1, 2, 4, 8
#include <cuda_runtime.h>

#define NWARPS (BLOCK / 32)

typedef struct __align__(4 * VEC) {
  float e[VEC];
} fvec;

__device__ __forceinline__ float warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Sum over the block; valid in thread 0.
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float part[NWARPS];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_sum(v);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  v = 0.0f;
  if (warp == 0) v = warp_sum(lane < NWARPS ? part[lane] : 0.0f);
  return v;
}

__global__ void __launch_bounds__(BLOCK) dot_partial(const float *__restrict__ a, const float *__restrict__ b,
                                                     float *__restrict__ part, int n) {
  const long long stride = (long long)gridDim.x * BLOCK;
  const long long nv = n / VEC;
  const fvec *av = (const fvec *)a, *bv = (const fvec *)b;
  float acc[ACC];
#pragma unroll
  for (int q = 0; q < ACC; q++) acc[q] = 0.0f;
  long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  // ACC vectors per step, each into its own accumulator, so the FMAs do not wait on each other.
  for (; i + (ACC - 1) * stride < nv; i += ACC * stride) {
#pragma unroll
    for (int q = 0; q < ACC; q++) {
      fvec x = av[i + q * stride], y = bv[i + q * stride];
#pragma unroll
      for (int e = 0; e < VEC; e++) acc[q] = fmaf(x.e[e], y.e[e], acc[q]);
    }
  }
  for (; i < nv; i += stride) {
    fvec x = av[i], y = bv[i];
#pragma unroll
    for (int e = 0; e < VEC; e++) acc[0] = fmaf(x.e[e], y.e[e], acc[0]);
  }
  if (blockIdx.x == 0) {
    long long t = nv * VEC + threadIdx.x;
    if (t < n) acc[0] = fmaf(a[t], b[t], acc[0]);
  }
  float s = 0.0f;
#pragma unroll
  for (int q = 0; q < ACC; q++) s += acc[q];
  s = block_sum(s);
  if (threadIdx.x == 0) part[blockIdx.x] = s;
}

__global__ void __launch_bounds__(BLOCK) dot_final(const float *__restrict__ part, float *__restrict__ out, int m) {
  float s = 0.0f;
  for (int i = threadIdx.x; i < m; i += BLOCK) s += part[i];
  s = block_sum(s);
  if (threadIdx.x == 0) out[0] = s;
}

extern "C" void dot_product(const float *a, const float *b, float *out, int n) {
  if (n <= 0) return;
  long long need = ((long long)n / VEC + BLOCK - 1) / BLOCK;
  if (need <= 1) {
    dot_partial<<<1, BLOCK>>>(a, b, out, n);
    return;
  }
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  int blocks = (int)(need < (long long)sms * WAVES ? need : (long long)sms * WAVES);
  float *part = 0;
  cudaMalloc(&part, (size_t)blocks * sizeof(float));
  dot_partial<<<blocks, BLOCK>>>(a, b, part, n);
  dot_final<<<1, BLOCK>>>(part, out, blocks);
  cudaFree(part);
}
