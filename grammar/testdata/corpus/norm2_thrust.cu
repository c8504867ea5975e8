#include <thrust/device_vector.h>
#include <thrust/transform_reduce.h>
#include <thrust/functional.h>
#include <cmath>

template <typename T>
struct square {
  __host__ __device__ T operator()(const T &x) const { return x * x; }
};

float norm2(const thrust::device_vector<float> &v) {
  square<float> unary_op;
  thrust::plus<float> binary_op;
  float init = 0;
  return std::sqrt(thrust::transform_reduce(v.begin(), v.end(), unary_op, init, binary_op));
}

float norm1(const thrust::device_vector<float> &v) {
  return thrust::transform_reduce(
      v.begin(), v.end(), [] __device__(float x) -> float { return fabsf(x); }, 0.0f, thrust::plus<float>());
}
