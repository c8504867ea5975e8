#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void scale(float *p, size_t n, float s) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) p[i] *= s;
}

// Split a buffer over all GPUs, enable peer access where possible and
// gather the pieces on device 0.
int main() {
  int ndev = 0;
  cudaGetDeviceCount(&ndev);
  if (ndev < 1) return 1;
  const size_t n = 1 << 24, chunk = n / ndev;
  std::vector<float *> bufs(ndev);
  std::vector<cudaStream_t> streams(ndev);
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    cudaMalloc(&bufs[d], chunk * sizeof(float));
    cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking);
    cudaMemsetAsync(bufs[d], 0, chunk * sizeof(float), streams[d]);
    scale<<<256, 256, 0, streams[d]>>>(bufs[d], chunk, 2.0f);
    if (d > 0) {
      int can = 0;
      cudaDeviceCanAccessPeer(&can, 0, d);
      if (can) {
        cudaSetDevice(0);
        cudaDeviceEnablePeerAccess(d, 0);
        cudaSetDevice(d);
      }
    }
  }
  cudaSetDevice(0);
  float *gather;
  cudaMalloc(&gather, n * sizeof(float));
  for (int d = 0; d < ndev; ++d) {
    cudaStreamSynchronize(streams[d]);
    cudaMemcpyPeerAsync(gather + d * chunk, 0, bufs[d], d, chunk * sizeof(float), streams[0]);
  }
  cudaStreamSynchronize(streams[0]);
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    cudaFree(bufs[d]);
    cudaStreamDestroy(streams[d]);
  }
  cudaSetDevice(0);
  cudaFree(gather);
  printf("ok on %d devices\n", ndev);
  return 0;
}
