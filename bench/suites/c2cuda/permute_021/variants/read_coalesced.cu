// strategy: naive - one thread per element, threadIdx.x along c: reads are coalesced, writes land R floats apart
#include <cuda_runtime.h>

__global__ void perm_read(const float *in, float *out, int B, int R, int C) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y, b = blockIdx.z;
  if (c >= C) return;
  out[((long long)b * C + c) * R + r] = in[((long long)b * R + r) * C + c];
}

extern "C" void permute_021(const float *in, float *out, int B, int R, int C) {
  if (B <= 0 || R <= 0 || C <= 0) return;
  dim3 grid((C + 255) / 256, R, B);
  perm_read<<<grid, 256>>>(in, out, B, R, C);
}
