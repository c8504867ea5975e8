// A naive transpose: the store walks down a column, so every lane of a warp
// writes a different 32-byte sector.
#include <cuda_runtime.h>

#define N 4096

__global__ void transpose_naive(float *out, const float *in) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  out[x * N + y] = in[y * N + x];
}

extern "C" void launch_transpose(float *out, const float *in) {
  dim3 block(32, 32);
  dim3 grid(N / 32, N / 32);
  transpose_naive<<<grid, block>>>(out, in);
}
