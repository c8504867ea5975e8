// Extended lambdas passed to thrust.
#include <thrust/device_vector.h>
#include <thrust/transform.h>

void square(thrust::device_vector<float> &v) {
  thrust::transform(v.begin(), v.end(), v.begin(), [] __device__ (float x) { return x * x; });
  float s = 2.0f;
  auto scale = [=] __host__ __device__ (float x) -> float { return s * x; };
  thrust::transform(v.begin(), v.end(), v.begin(), scale);
}
