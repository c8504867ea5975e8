#include <cuda_runtime.h>
#include <cstdint>

// int8 GEMV with __dp4a (4-way int8 dot product accumulating into int32),
// per-row scales for dequantization.
__global__ void gemv_int8_dp4a(const int8_t *__restrict__ W, const int8_t *__restrict__ x,
                               const float *__restrict__ row_scale, float x_scale, float *__restrict__ y, int rows,
                               int cols) {
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const int *w4 = reinterpret_cast<const int *>(W + (size_t)row * cols);
  const int *x4 = reinterpret_cast<const int *>(x);
  int acc = 0;
  for (int c = lane; c < cols / 4; c += 32) acc = __dp4a(w4[c], x4[c], acc);
  for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0) y[row] = static_cast<float>(acc) * row_scale[row] * x_scale;
}
