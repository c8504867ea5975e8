#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

// Device-side assertions and printf for debugging index math.
__global__ void checked_gather(const int *idx, const float *src, float *dst, int n, int src_len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int j = idx[i];
  assert(j >= 0 && j < src_len);
  if (j < 0 || j >= src_len) {
    printf("block %d thread %d: index %d out of range [0, %d)\n", blockIdx.x, threadIdx.x, j, src_len);
    __trap();
  }
  dst[i] = src[j];
}

int main() {
  int *idx;
  float *src, *dst;
  cudaMallocManaged(&idx, 64 * sizeof(int));
  cudaMallocManaged(&src, 64 * sizeof(float));
  cudaMallocManaged(&dst, 64 * sizeof(float));
  for (int i = 0; i < 64; ++i) {
    idx[i] = 63 - i;
    src[i] = float(i);
  }
  checked_gather<<<1, 64>>>(idx, src, dst, 64, 64);
  cudaError_t err = cudaDeviceSynchronize();
  printf("%s %f\n", cudaGetErrorString(err), dst[0]);
  return err != cudaSuccess;
}
