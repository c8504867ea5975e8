#include <cuda_runtime.h>
#include <cfloat>

// Numerically stable row softmax; one block per row, block-wide max and sum.
template <int BLOCK>
__global__ void softmax_rows(const float *__restrict__ x, float *__restrict__ y, int cols) {
  __shared__ float red[BLOCK / 32];
  const float *row = x + (size_t)blockIdx.x * cols;
  float *out = y + (size_t)blockIdx.x * cols;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += BLOCK) m = fmaxf(m, row[c]);
  for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (lane == 0) red[warp] = m;
  __syncthreads();
  m = red[0];
  for (int w = 1; w < BLOCK / 32; ++w) m = fmaxf(m, red[w]);
  __syncthreads();

  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) s += __expf(row[c] - m);
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  if (lane == 0) red[warp] = s;
  __syncthreads();
  s = 0.f;
  for (int w = 0; w < BLOCK / 32; ++w) s += red[w];
  float inv = 1.f / s;
  for (int c = threadIdx.x; c < cols; c += BLOCK) out[c] = __expf(row[c] - m) * inv;
}

void softmax(const float *x, float *y, int rows, int cols, cudaStream_t s) {
  if (cols <= 1024)
    softmax_rows<128><<<rows, 128, 0, s>>>(x, y, cols);
  else
    softmax_rows<512><<<rows, 512, 0, s>>>(x, y, cols);
}
