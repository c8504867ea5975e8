// strategy: atomics - zero out, then blocks split the B axis into chunks of 64 (more parallelism when A*C is small); each thread sums its chunk and atomicAdd-s the partial
#include <cuda_runtime.h>

#define CHUNK 64

__global__ void axis1_split(const float *x, float *out, int A, int B, int C) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, a = blockIdx.y, b0 = blockIdx.z * CHUNK;
  if (c >= C) return;
  const float *p = x + ((long long)a * B + b0) * C + c;
  int n = min(CHUNK, B - b0);
  float acc = 0.0f;
  for (int b = 0; b < n; b++) acc += p[(long long)b * C];
  atomicAdd(out + (long long)a * C + c, acc);
}

extern "C" void sum_axis1_3d(const float *x, float *out, int A, int B, int C) {
  if (A <= 0 || C <= 0) return;
  cudaMemsetAsync(out, 0, sizeof(float) * (size_t)A * C, 0);
  if (B <= 0) return;
  dim3 grid((C + 127) / 128, A, (B + CHUNK - 1) / CHUNK);
  axis1_split<<<grid, 128>>>(x, out, A, B, C);
}
