#include <cuda_runtime.h>

enum class Activation { kNone, kRelu, kSigmoid, kTanh };

template <Activation A>
struct Act;

template <>
struct Act<Activation::kNone> {
  static __device__ float apply(float x) { return x; }
};
template <>
struct Act<Activation::kRelu> {
  static __device__ float apply(float x) { return fmaxf(x, 0.0f); }
};
template <>
struct Act<Activation::kSigmoid> {
  static __device__ float apply(float x) { return 1.0f / (1.0f + __expf(-x)); }
};
template <>
struct Act<Activation::kTanh> {
  static __device__ float apply(float x) { return tanhf(x); }
};

// out[r][c] = act(in[r][c] + bias[c]) for a row-major rows x cols matrix.
template <Activation A>
__global__ void bias_act(const float *in, const float *bias, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;
  if (c < cols && r < rows) {
    out[r * cols + c] = Act<A>::apply(in[r * cols + c] + bias[c]);
  }
}

void bias_act_launch(Activation a, const float *in, const float *bias, float *out, int rows, int cols) {
  dim3 block(128);
  dim3 grid((cols + block.x - 1) / block.x, rows);
  switch (a) {
    case Activation::kNone:
      bias_act<Activation::kNone><<<grid, block>>>(in, bias, out, rows, cols);
      break;
    case Activation::kRelu:
      bias_act<Activation::kRelu><<<grid, block>>>(in, bias, out, rows, cols);
      break;
    case Activation::kSigmoid:
      bias_act<Activation::kSigmoid><<<grid, block>>>(in, bias, out, rows, cols);
      break;
    case Activation::kTanh:
      bias_act<Activation::kTanh><<<grid, block>>>(in, bias, out, rows, cols);
      break;
  }
}
