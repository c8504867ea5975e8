// strategy: deliberately poor (unfused kernels) - writes all n products to a scratch array, then reduces it with tree passes: three times the memory traffic of a fused kernel
#include <cuda_runtime.h>

#define THREADS 256
#define PER_BLOCK (2 * THREADS)

__global__ void multiply(const float *a, const float *b, float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = a[i] * b[i];
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
  for (unsigned stride = THREADS / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" void dot_product(const float *a, const float *b, float *out, int n) {
  if (n <= 0) return;
  int blocks = (n + PER_BLOCK - 1) / PER_BLOCK;
  float *prod = 0, *buf[2] = {0, 0};
  cudaMalloc(&prod, (size_t)n * sizeof(float));
  cudaMalloc(&buf[0], (size_t)blocks * sizeof(float));
  cudaMalloc(&buf[1], (size_t)((blocks + PER_BLOCK - 1) / PER_BLOCK) * sizeof(float));
  multiply<<<(n + THREADS - 1) / THREADS, THREADS>>>(a, b, prod, n);
  const float *src = prod;
  int m = n, which = 0;
  for (;;) {
    int k = (m + PER_BLOCK - 1) / PER_BLOCK;
    float *dst = (k == 1) ? out : buf[which];
    sum_blocks<<<k, THREADS>>>(src, dst, m);
    if (k == 1) break;
    src = dst;
    m = k;
    which ^= 1;
  }
  cudaFree(prod);
  cudaFree(buf[0]);
  cudaFree(buf[1]);
}
