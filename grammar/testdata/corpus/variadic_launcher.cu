#include <cuda_runtime.h>
#include <cstdio>
#include <utility>

// A checked kernel launcher: forwards arguments, checks launch errors and,
// in debug builds, synchronizes to surface asynchronous faults.
template <typename... KernelArgs, typename... Args>
cudaError_t launch_checked(void (*kernel)(KernelArgs...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                           Args &&...args) {
  kernel<<<grid, block, smem, stream>>>(std::forward<Args>(args)...);
  cudaError_t err = cudaGetLastError();
#ifndef NDEBUG
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
#endif
  if (err != cudaSuccess) std::fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(err));
  return err;
}

template <typename... Ts>
__device__ void debug_print(const char *fmt, Ts... vals) {
  if (threadIdx.x == 0 && blockIdx.x == 0) printf(fmt, vals...);
}

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
  debug_print("axpy n=%d a=%f\n", n, a);
}

template <typename... Ts>
constexpr int count_args(Ts...) {
  return sizeof...(Ts);
}

int main() {
  float *x, *y;
  int n = 1024;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  static_assert(count_args(1, 2.0, 'c') == 3, "variadic count");
  cudaError_t err = launch_checked(axpy, dim3(4), dim3(256), 0, nullptr, 2.0f, x, y, n);
  cudaFree(x);
  cudaFree(y);
  return err == cudaSuccess ? 0 : 1;
}
