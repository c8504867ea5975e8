#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

// Extended __device__ lambdas (nvcc --extended-lambda) passed to a generic
// kernel and to thrust algorithms.
template <typename F>
__global__ void for_each_index(int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) f(i);
}

void scale_and_shift(float *data, int n, float a, float b) {
  for_each_index<<<128, 256>>>(n, [=] __device__(int i) { data[i] = a * data[i] + b; });
}

void count_evens(thrust::device_vector<int> &v, int *d_count) {
  int *p = thrust::raw_pointer_cast(v.data());
  thrust::for_each(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(static_cast<int>(v.size())),
                   [p, d_count] __device__(int i) {
                     if ((p[i] & 1) == 0) atomicAdd(d_count, 1);
                   });
}

void fill_with_host_device_lambda(float *data, int n) {
  auto value_at = [] __host__ __device__(int i) -> float { return 0.5f * i; };
  for_each_index<<<64, 128>>>(n, [=] __device__(int i) { data[i] = value_at(i); });
}
