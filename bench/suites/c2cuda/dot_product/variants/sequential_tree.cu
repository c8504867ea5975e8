// strategy: shared-memory tiling - products of two elements per thread summed by a sequential-addressing shared tree, then repeated tree passes over block partials
#include <cuda_runtime.h>

#define THREADS 256
#define PER_BLOCK (2 * THREADS)

__device__ __forceinline__ void tree(float *s, unsigned tid) {
  for (unsigned stride = THREADS / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
}

__global__ void dot_blocks(const float *a, const float *b, float *out, int n) {
  __shared__ float s[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * PER_BLOCK + tid;
  float v = 0.0f;
  if (i < (unsigned)n) v = a[i] * b[i];
  if (i + THREADS < (unsigned)n) v += a[i + THREADS] * b[i + THREADS];
  s[tid] = v;
  __syncthreads();
  tree(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void sum_blocks(const float *in, float *out, int m) {
  __shared__ float s[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * PER_BLOCK + tid;
  float v = 0.0f;
  if (i < (unsigned)m) v = in[i];
  if (i + THREADS < (unsigned)m) v += in[i + THREADS];
  s[tid] = v;
  __syncthreads();
  tree(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" void dot_product(const float *a, const float *b, float *out, int n) {
  if (n <= 0) return;
  int blocks = (n + PER_BLOCK - 1) / PER_BLOCK;
  if (blocks == 1) {
    dot_blocks<<<1, THREADS>>>(a, b, out, n);
    return;
  }
  int blocks2 = (blocks + PER_BLOCK - 1) / PER_BLOCK;
  float *buf[2] = {0, 0};
  cudaMalloc(&buf[0], (size_t)blocks * sizeof(float));
  cudaMalloc(&buf[1], (size_t)blocks2 * sizeof(float));
  dot_blocks<<<blocks, THREADS>>>(a, b, buf[0], n);
  const float *src = buf[0];
  int m = blocks, which = 1;
  for (;;) {
    int k = (m + PER_BLOCK - 1) / PER_BLOCK;
    float *dst = (k == 1) ? out : buf[which];
    sum_blocks<<<k, THREADS>>>(src, dst, m);
    if (k == 1) break;
    src = dst;
    m = k;
    which ^= 1;
  }
  cudaFree(buf[0]);
  cudaFree(buf[1]);
}
