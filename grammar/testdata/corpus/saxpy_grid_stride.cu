#include <cuda_runtime.h>

// Grid-stride SAXPY: correct for any grid size, coalesced on every pass.
__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

void launch_saxpy(int n, float a, const float *x, float *y, cudaStream_t stream) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  const int threads = 256;
  int blocks = 32 * sms;
  saxpy<<<blocks, threads, 0, stream>>>(n, a, x, y);
}
