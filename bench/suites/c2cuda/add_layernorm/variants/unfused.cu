// strategy: deliberately poor (unfused) - one kernel writes h = x + res to a scratch array, a second (one block per row) normalises it: the sum makes an extra round trip through memory
#include <cuda_runtime.h>

__global__ void add_kernel(const float *x, const float *res, float *h, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = x[i] + res[i];
}

__global__ void ln_block(const float *h, const float *gamma, const float *beta, float *y, int cols) {
  __shared__ float red[2][256];
  const float *row = h + (long long)blockIdx.x * cols;
  float s = 0.0f;
  for (int j = threadIdx.x; j < cols; j += 256) s += row[j];
  red[0][threadIdx.x] = s;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (threadIdx.x < k) red[0][threadIdx.x] += red[0][threadIdx.x + k];
    __syncthreads();
  }
  float mean = red[0][0] / cols, v = 0.0f;
  for (int j = threadIdx.x; j < cols; j += 256) {
    float d = row[j] - mean;
    v += d * d;
  }
  red[1][threadIdx.x] = v;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (threadIdx.x < k) red[1][threadIdx.x] += red[1][threadIdx.x + k];
    __syncthreads();
  }
  float inv = rsqrtf(red[1][0] / cols + 1e-5f);
  for (int j = threadIdx.x; j < cols; j += 256)
    y[(long long)blockIdx.x * cols + j] = (row[j] - mean) * inv * gamma[j] + beta[j];
}

extern "C" void add_layernorm(const float *x, const float *res, const float *gamma, const float *beta, float *y, int rows,
                              int cols) {
  long long n = (long long)rows * cols;
  if (n <= 0) return;
  float *h = nullptr;
  if (cudaMalloc(&h, sizeof(float) * (size_t)n) != cudaSuccess) return;
  add_kernel<<<(unsigned)((n + 255) / 256), 256>>>(x, res, h, n);
  ln_block<<<rows, 256>>>(h, gamma, beta, y, cols);
  cudaFree(h);
}
