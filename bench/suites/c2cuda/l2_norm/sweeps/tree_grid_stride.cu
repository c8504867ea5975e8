// strategy: shared-memory tree reduction - WAVES blocks per SM of BLOCK threads, grid-stride loop with ITEMS loads in flight into ITEMS accumulators of type ACCT, sequential-addressing tree in shared memory per block, one-block final pass takes the root
// sweep: BLOCK = 128, 256, 512, 1024
// sweep: ITEMS = 1, 2, 4, 8
// sweep: WAVES = 4, 16, 64
// sweep: ACCT = float, double
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ ACCT tree_sum(ACCT v, ACCT *s) {
  s[threadIdx.x] = v;
  __syncthreads();
#pragma unroll
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  return s[0];
}

__global__ void __launch_bounds__(BLOCK) sumsq_partial(const float *__restrict__ x, ACCT *__restrict__ part, int n) {
  __shared__ ACCT s[BLOCK];
  const long long stride = (long long)gridDim.x * BLOCK;
  long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  ACCT acc[ITEMS];
#pragma unroll
  for (int q = 0; q < ITEMS; q++) acc[q] = 0;
  for (; i + (ITEMS - 1) * stride < n; i += ITEMS * stride) {
    float v[ITEMS];
#pragma unroll
    for (int q = 0; q < ITEMS; q++) v[q] = x[i + q * stride];
#pragma unroll
    for (int q = 0; q < ITEMS; q++) acc[q] += (ACCT)v[q] * (ACCT)v[q];
  }
  for (; i < n; i += stride) acc[0] += (ACCT)x[i] * (ACCT)x[i];
#pragma unroll
  for (int q = 1; q < ITEMS; q++) acc[0] += acc[q];
  ACCT total = tree_sum(acc[0], s);
  if (threadIdx.x == 0) part[blockIdx.x] = total;
}

__global__ void __launch_bounds__(BLOCK) sumsq_root(const ACCT *__restrict__ part, int m, float *__restrict__ result) {
  __shared__ ACCT s[BLOCK];
  ACCT v = 0;
  for (int i = threadIdx.x; i < m; i += BLOCK) v += part[i];
  v = tree_sum(v, s);
  if (threadIdx.x == 0) result[0] = (float)sqrt((double)v);
}

extern "C" void l2_norm(const float *x, float *result, int n) {
  if (n <= 0) return;
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  long long need = ((long long)n + BLOCK - 1) / BLOCK;
  int blocks = (int)(need < (long long)sms * WAVES ? need : (long long)sms * WAVES);
  ACCT *part = 0;
  if (cudaMalloc(&part, (size_t)blocks * sizeof(ACCT)) != cudaSuccess) return;
  sumsq_partial<<<blocks, BLOCK>>>(x, part, n);
  sumsq_root<<<1, BLOCK>>>(part, blocks, result);
  cudaFree(part);
}
