#include <cuda_runtime.h>

#define THREADS 256

// Dot product in double precision: per-block partials, then a second pass.
__global__ void dot_partial(const double *a, const double *b, double *partial, int n) {
  __shared__ double cache[THREADS];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  double temp = 0;
  while (tid < n) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }
  cache[threadIdx.x] = temp;
  __syncthreads();
  int i = blockDim.x / 2;
  while (i != 0) {
    if (threadIdx.x < i) cache[threadIdx.x] += cache[threadIdx.x + i];
    __syncthreads();
    i /= 2;
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = cache[0];
}

__global__ void dot_final(const double *partial, int nparts, double *result) {
  __shared__ double cache[THREADS];
  double t = 0;
  for (int k = threadIdx.x; k < nparts; k += THREADS) t += partial[k];
  cache[threadIdx.x] = t;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = cache[0];
}

double dot(const double *a, const double *b, int n, double *scratch) {
  int blocks = (n + THREADS - 1) / THREADS;
  if (blocks > 1024) blocks = 1024;
  dot_partial<<<blocks, THREADS>>>(a, b, scratch, n);
  dot_final<<<1, THREADS>>>(scratch, blocks, scratch + blocks);
  double r;
  cudaMemcpy(&r, scratch + blocks, sizeof r, cudaMemcpyDeviceToHost);
  return r;
}
