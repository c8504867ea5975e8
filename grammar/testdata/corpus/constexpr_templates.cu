#include <cuda_runtime.h>
#include <type_traits>
#include <cstdint>

template <typename T>
constexpr __host__ __device__ T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

template <int N>
struct Log2 {
  static constexpr int value = 1 + Log2<N / 2>::value;
};
template <>
struct Log2<1> {
  static constexpr int value = 0;
};

template <typename T>
struct VecTraits;
template <>
struct VecTraits<float> {
  using vec4 = float4;
  static constexpr int width = 4;
};
template <>
struct VecTraits<double> {
  using vec4 = double2;
  static constexpr int width = 2;
};

// Copy with the widest vector type, chosen at compile time.
template <typename T, int BLOCK = 256>
__global__ void vec_copy(const T *__restrict__ in, T *__restrict__ out, int64_t n) {
  using V = typename VecTraits<T>::vec4;
  constexpr int W = VecTraits<T>::width;
  static_assert(BLOCK % 32 == 0, "block must be a multiple of the warp size");
  static_assert(sizeof(V) == W * sizeof(T), "vector type must pack exactly");
  int64_t i = (static_cast<int64_t>(blockIdx.x) * BLOCK + threadIdx.x);
  if constexpr (std::is_same_v<T, float>) {
    if ((i + 1) * W <= n) {
      reinterpret_cast<V *>(out)[i] = reinterpret_cast<const V *>(in)[i];
      return;
    }
  }
  for (int64_t k = i * W; k < n && k < (i + 1) * W; ++k) out[k] = in[k];
}

template <typename T>
void launch_vec_copy(const T *in, T *out, int64_t n, cudaStream_t s) {
  constexpr int kBlock = 256;
  constexpr int kShift = Log2<kBlock>::value;
  static_assert(kShift == 8);
  auto vecs = ceil_div<int64_t>(n, VecTraits<T>::width);
  vec_copy<T, kBlock><<<static_cast<unsigned>(ceil_div<int64_t>(vecs, kBlock)), kBlock, 0, s>>>(in, out, n);
}

template void launch_vec_copy<float>(const float *, float *, int64_t, cudaStream_t);
template void launch_vec_copy<double>(const double *, double *, int64_t, cudaStream_t);
