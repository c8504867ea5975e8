#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(int n, float *x, float *y) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = index; i < n; i += stride) y[i] = x[i] + y[i];
}

// Managed memory with explicit prefetch and advice.
int main(void) {
  int N = 1 << 20;
  float *x, *y;
  cudaMallocManaged(&x, N * sizeof(float));
  cudaMallocManaged(&y, N * sizeof(float));
  for (int i = 0; i < N; i++) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  int device = -1;
  cudaGetDevice(&device);
  // CUDA 13 takes a cudaMemLocation (CUDA 12's *_v2 signatures).
  cudaMemLocation gpu = {};
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = device;
  cudaMemLocation host = {};
  host.type = cudaMemLocationTypeHost;
  cudaMemAdvise(x, N * sizeof(float), cudaMemAdviseSetReadMostly, gpu);
  cudaMemPrefetchAsync(x, N * sizeof(float), gpu, 0, NULL);
  cudaMemPrefetchAsync(y, N * sizeof(float), gpu, 0, NULL);

  int blockSize = 256;
  int numBlocks = (N + blockSize - 1) / blockSize;
  add<<<numBlocks, blockSize>>>(N, x, y);
  cudaMemPrefetchAsync(y, N * sizeof(float), host, 0, NULL);
  cudaDeviceSynchronize();

  float maxError = 0.0f;
  for (int i = 0; i < N; i++) maxError = fmax(maxError, fabs(y[i] - 3.0f));
  printf("Max error: %f\n", maxError);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
