// strategy: deliberately poor (divergent) - shared-memory tree with interleaved addressing (tid % (2*s) == 0), one element per thread, repeated passes
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

__global__ void max_interleaved(const float *in, float *out, int m) {
  __shared__ float s[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * THREADS + tid;
  s[tid] = (i < (unsigned)m) ? in[i] : -INFINITY;
  __syncthreads();
  for (unsigned stride = 1; stride < THREADS; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] = fmaxf(s[tid], s[tid + stride]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" void max_reduce(const float *x, float *out, int n) {
  if (n <= 0) return;
  int blocks = (n + THREADS - 1) / THREADS;
  if (blocks == 1) {
    max_interleaved<<<1, THREADS>>>(x, out, n);
    return;
  }
  int blocks2 = (blocks + THREADS - 1) / THREADS;
  float *buf[2] = {0, 0};
  cudaMalloc(&buf[0], (size_t)blocks * sizeof(float));
  cudaMalloc(&buf[1], (size_t)blocks2 * sizeof(float));
  const float *src = x;
  int m = n, which = 0;
  for (;;) {
    int b = (m + THREADS - 1) / THREADS;
    float *dst = (b == 1) ? out : buf[which];
    max_interleaved<<<b, THREADS>>>(src, dst, m);
    if (b == 1) break;
    src = dst;
    m = b;
    which ^= 1;
  }
  cudaFree(buf[0]);
  cudaFree(buf[1]);
}
