// strategy: naive - one thread per element, threadIdx.x along r: writes are coalesced, reads land C floats apart
#include <cuda_runtime.h>

__global__ void perm_write(const float *in, float *out, int B, int R, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, c = blockIdx.y, b = blockIdx.z;
  if (r >= R) return;
  out[((long long)b * C + c) * R + r] = in[((long long)b * R + r) * C + c];
}

extern "C" void permute_021(const float *in, float *out, int B, int R, int C) {
  if (B <= 0 || R <= 0 || C <= 0) return;
  dim3 grid((R + 255) / 256, C, B);
  perm_write<<<grid, 256>>>(in, out, B, R, C);
}
