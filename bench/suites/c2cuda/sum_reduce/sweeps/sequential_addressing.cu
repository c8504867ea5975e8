// strategy: shared-memory tiling - sequential addressing, THREADS per block, two elements added while loading, repeated passes
// sweep: THREADS = 64, 128, 256, 512, 1024
#include <cuda_runtime.h>


__global__ void reduce_sequential(const float *in, float *out, int m) {
  __shared__ float s[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * THREADS) + tid;
  float v = 0.0f;
  if (i < (unsigned)m) v = in[i];
  if (i + THREADS < (unsigned)m) v += in[i + THREADS];
  s[tid] = v;
  __syncthreads();
  for (unsigned stride = THREADS / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" void sum_reduce(const float *x, float *out, int n) {
  if (n <= 0) return;
  const int per_block = 2 * THREADS;
  int blocks = (n + per_block - 1) / per_block;
  if (blocks == 1) {
    reduce_sequential<<<1, THREADS>>>(x, out, n);
    return;
  }
  int blocks2 = (blocks + per_block - 1) / per_block;
  float *buf[2] = {0, 0};
  cudaMalloc(&buf[0], (size_t)blocks * sizeof(float));
  cudaMalloc(&buf[1], (size_t)blocks2 * sizeof(float));
  const float *src = x;
  int m = n, which = 0;
  for (;;) {
    int b = (m + per_block - 1) / per_block;
    float *dst = (b == 1) ? out : buf[which];
    reduce_sequential<<<b, THREADS>>>(src, dst, m);
    if (b == 1) break;
    src = dst;
    m = b;
    which ^= 1;
  }
  cudaFree(buf[0]);
  cudaFree(buf[1]);
}
