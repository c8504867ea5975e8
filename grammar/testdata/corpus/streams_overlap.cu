#include <cstdio>
#include <cuda_runtime.h>

#define checkCuda(expr)                                                              \
  do {                                                                               \
    cudaError_t result_ = (expr);                                                    \
    if (result_ != cudaSuccess) {                                                    \
      fprintf(stderr, "CUDA Runtime Error: %s (%s)\n", cudaGetErrorString(result_), #expr); \
    }                                                                                \
  } while (false)

__global__ void kernel(float *a, int offset) {
  int i = offset + threadIdx.x + blockIdx.x * blockDim.x;
  float x = (float)i;
  float s = sinf(x);
  float c = cosf(x);
  a[i] = a[i] + sqrtf(s * s + c * c);
}

// Overlap H2D copy, kernel and D2H copy by splitting the work over streams.
int main() {
  const int blockSize = 256, nStreams = 4;
  const int n = 4 * 1024 * blockSize * nStreams;
  const int streamSize = n / nStreams;
  const int streamBytes = streamSize * sizeof(float);
  const int bytes = n * sizeof(float);

  float *a, *d_a;
  checkCuda(cudaMallocHost((void **)&a, bytes));
  checkCuda(cudaMalloc((void **)&d_a, bytes));

  cudaEvent_t startEvent, stopEvent;
  cudaStream_t stream[nStreams];
  checkCuda(cudaEventCreate(&startEvent));
  checkCuda(cudaEventCreate(&stopEvent));
  for (int i = 0; i < nStreams; ++i) checkCuda(cudaStreamCreate(&stream[i]));

  memset(a, 0, bytes);
  checkCuda(cudaEventRecord(startEvent, 0));
  for (int i = 0; i < nStreams; ++i) {
    int offset = i * streamSize;
    checkCuda(cudaMemcpyAsync(&d_a[offset], &a[offset], streamBytes, cudaMemcpyHostToDevice, stream[i]));
    kernel<<<streamSize / blockSize, blockSize, 0, stream[i]>>>(d_a, offset);
    checkCuda(cudaMemcpyAsync(&a[offset], &d_a[offset], streamBytes, cudaMemcpyDeviceToHost, stream[i]));
  }
  checkCuda(cudaEventRecord(stopEvent, 0));
  checkCuda(cudaEventSynchronize(stopEvent));
  float ms;
  checkCuda(cudaEventElapsedTime(&ms, startEvent, stopEvent));
  printf("Time for asynchronous V1 transfer and execute (ms): %f\n", ms);

  checkCuda(cudaEventDestroy(startEvent));
  checkCuda(cudaEventDestroy(stopEvent));
  for (int i = 0; i < nStreams; ++i) checkCuda(cudaStreamDestroy(stream[i]));
  cudaFree(d_a);
  cudaFreeHost(a);
  return 0;
}
