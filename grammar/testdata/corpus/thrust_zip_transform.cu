#include <thrust/device_vector.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>
#include <thrust/reduce.h>
#include <thrust/tuple.h>

// Fancy iterators: a zip of (x, y, w) reduced to a weighted mean without
// materializing the products.
struct weighted {
  __host__ __device__ float operator()(const thrust::tuple<float, float> &t) const {
    return thrust::get<0>(t) * thrust::get<1>(t);
  }
};

struct rotate2d {
  float c, s;
  __host__ __device__ thrust::tuple<float, float> operator()(const thrust::tuple<float, float> &p) const {
    float x = thrust::get<0>(p), y = thrust::get<1>(p);
    return thrust::make_tuple(c * x - s * y, s * x + c * y);
  }
};

float weighted_mean(const thrust::device_vector<float> &x, const thrust::device_vector<float> &w) {
  auto first = thrust::make_transform_iterator(thrust::make_zip_iterator(thrust::make_tuple(x.begin(), w.begin())),
                                               weighted());
  auto last = first + x.size();
  float num = thrust::reduce(first, last, 0.0f);
  float den = thrust::reduce(w.begin(), w.end(), 0.0f);
  return num / den;
}

void rotate(thrust::device_vector<float> &x, thrust::device_vector<float> &y, float angle) {
  auto begin = thrust::make_zip_iterator(thrust::make_tuple(x.begin(), y.begin()));
  auto end = thrust::make_zip_iterator(thrust::make_tuple(x.end(), y.end()));
  thrust::transform(begin, end, begin, rotate2d{cosf(angle), sinf(angle)});
}
