#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/iterator/counting_iterator.h>

// Row sums of a CSR-like segmented array, three ways.
__global__ void segmented_sum_naive(const float *vals, const int *offsets, int nseg, float *out) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nseg) return;
  float acc = 0.f;
  for (int j = offsets[s]; j < offsets[s + 1]; ++j) acc += vals[j];
  out[s] = acc;
}

void segmented_sum_cub(const float *vals, const int *offsets, int nseg, float *out, cudaStream_t st) {
  size_t bytes = 0;
  cub::DeviceSegmentedReduce::Sum(nullptr, bytes, vals, out, nseg, offsets, offsets + 1, st);
  void *tmp = nullptr;
  cudaMalloc(&tmp, bytes);
  cub::DeviceSegmentedReduce::Sum(tmp, bytes, vals, out, nseg, offsets, offsets + 1, st);
  cudaFree(tmp);
}

void segmented_sum_thrust(const thrust::device_vector<int> &keys, const thrust::device_vector<float> &vals,
                          thrust::device_vector<int> &out_keys, thrust::device_vector<float> &out_vals) {
  auto end = thrust::reduce_by_key(keys.begin(), keys.end(), vals.begin(), out_keys.begin(), out_vals.begin());
  out_keys.resize(end.first - out_keys.begin());
  out_vals.resize(end.second - out_vals.begin());
}
