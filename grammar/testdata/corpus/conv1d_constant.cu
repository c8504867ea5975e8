#include <cuda_runtime.h>

#define MAX_MASK 64
__constant__ float d_mask[MAX_MASK];

// 1D convolution with the mask in constant memory and a shared-memory halo.
__global__ void conv1d_tiled(const float *in, float *out, int n, int mask_len) {
  extern __shared__ float tile[];
  int r = mask_len / 2;
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int halo_left = blockIdx.x * blockDim.x - r;

  tile[threadIdx.x + r] = gid < n ? in[gid] : 0.0f;
  if (threadIdx.x < r) {
    int l = halo_left + threadIdx.x;
    int h = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = l >= 0 ? in[l] : 0.0f;
    tile[threadIdx.x + blockDim.x + r] = h < n ? in[h] : 0.0f;
  }
  __syncthreads();
  if (gid >= n) return;
  float acc = 0.0f;
  for (int j = 0; j < mask_len; ++j) acc += tile[threadIdx.x + j] * d_mask[j];
  out[gid] = acc;
}

cudaError_t conv1d(const float *in, float *out, int n, const float *h_mask, int mask_len) {
  if (mask_len > MAX_MASK || mask_len % 2 == 0) return cudaErrorInvalidValue;
  cudaMemcpyToSymbol(d_mask, h_mask, mask_len * sizeof(float));
  int threads = 256;
  size_t shmem = (threads + mask_len - 1) * sizeof(float);
  conv1d_tiled<<<(n + threads - 1) / threads, threads, shmem>>>(in, out, n, mask_len);
  return cudaGetLastError();
}
