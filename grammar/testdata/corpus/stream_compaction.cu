#include <cub/cub.cuh>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_ptr.h>

struct is_positive {
  __host__ __device__ bool operator()(const float x) const { return x > 0.0f; }
};

// Compaction with a flag/scan/scatter pipeline.
__global__ void flag_kernel(const float *in, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = in[i] > 0.0f ? 1 : 0;
}

__global__ void scatter_kernel(const float *in, const int *flags, const int *pos, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flags[i]) out[pos[i]] = in[i];
}

int compact_manual(const float *in, float *out, int *flags, int *pos, int n) {
  int threads = 256, blocks = (n + threads - 1) / threads;
  flag_kernel<<<blocks, threads>>>(in, flags, n);
  size_t temp_bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, flags, pos, n);
  void *temp = nullptr;
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceScan::ExclusiveSum(temp, temp_bytes, flags, pos, n);
  scatter_kernel<<<blocks, threads>>>(in, flags, pos, out, n);
  int last_pos = 0, last_flag = 0;
  cudaMemcpy(&last_pos, pos + n - 1, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&last_flag, flags + n - 1, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(temp);
  return last_pos + last_flag;
}

int compact_thrust(const float *in, float *out, int n) {
  thrust::device_ptr<const float> first(in);
  thrust::device_ptr<float> result(out);
  auto end = thrust::copy_if(first, first + n, result, is_positive());
  return static_cast<int>(end - result);
}
