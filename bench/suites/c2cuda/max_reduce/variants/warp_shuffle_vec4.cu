// strategy: warp primitives + vectorized loads - grid-stride float4 loads, __shfl_xor_sync butterfly max, one value per block, one-block final pass
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#define THREADS 256
#define WARPS (THREADS / 32)

__device__ __forceinline__ float warp_max(float v) {
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
  return v;
}

// Block-wide max; valid in every thread of warp 0.
__device__ __forceinline__ float block_max(float v) {
  __shared__ float part[WARPS];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_max(v);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  v = -INFINITY;
  if (warp == 0) v = warp_max(lane < WARPS ? part[lane] : -INFINITY);
  return v;
}

__global__ void __launch_bounds__(THREADS) partial_max(const float *__restrict__ x, float *__restrict__ part,
                                                       int n, int use_vec) {
  long long tid = (long long)blockIdx.x * THREADS + threadIdx.x;
  long long stride = (long long)gridDim.x * THREADS;
  float m = -INFINITY;
  long long done = 0;
  if (use_vec) {
    long long n4 = n / 4;
    const float4 *x4 = (const float4 *)x;
    for (long long i = tid; i < n4; i += stride) {
      float4 v = x4[i];
      m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    }
    done = 4 * n4;
  }
  for (long long i = done + tid; i < n; i += stride) m = fmaxf(m, x[i]);
  m = block_max(m);
  if (threadIdx.x == 0) part[blockIdx.x] = m;
}

__global__ void __launch_bounds__(THREADS) final_max(const float *__restrict__ part, float *__restrict__ out, int k) {
  float m = -INFINITY;
  for (int i = threadIdx.x; i < k; i += THREADS) m = fmaxf(m, part[i]);
  m = block_max(m);
  if (threadIdx.x == 0) out[0] = m;
}

extern "C" void max_reduce(const float *x, float *out, int n) {
  if (n <= 0) return;
  int use_vec = ((uintptr_t)x % 16) == 0;
  long long items = use_vec ? (n + 3) / 4 : n;
  long long need = (items + THREADS - 1) / THREADS;
  if (need == 1) {
    partial_max<<<1, THREADS>>>(x, out, n, use_vec);
    return;
  }
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  int blocks = (int)(need < (long long)sms * 8 ? need : (long long)sms * 8);
  float *part = 0;
  cudaMalloc(&part, (size_t)blocks * sizeof(float));
  partial_max<<<blocks, THREADS>>>(x, part, n, use_vec);
  final_max<<<1, THREADS>>>(part, out, blocks);
  cudaFree(part);
}
