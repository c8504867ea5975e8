#include <cuda_runtime.h>
#include <cstdint>

template <typename T>
__device__ __forceinline__ T relu(T v) {
  return v > T(0) ? v : T(0);
}

template <typename T>
__global__ void relu_inplace_kernel(T *data, int64_t n) {
  int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (; idx < n; idx += stride) {
    data[idx] = relu(data[idx]);
  }
}

template <typename T>
cudaError_t relu_inplace(T *data, int64_t n, cudaStream_t s = 0) {
  if (n == 0) return cudaSuccess;
  constexpr int kThreads = 512;
  int64_t blocks = (n + kThreads - 1) / kThreads;
  if (blocks > 65535) blocks = 65535;
  relu_inplace_kernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(data, n);
  return cudaGetLastError();
}

template cudaError_t relu_inplace<float>(float *, int64_t, cudaStream_t);
template cudaError_t relu_inplace<double>(double *, int64_t, cudaStream_t);
