// strategy: vectorized loads - each thread reads 4 consecutive c as one float4 (when C is a multiple of 4) and scatters them to 4 output rows
#include <cuda_runtime.h>

__global__ void perm_vec(const float *in, float *out, int B, int R, int C) {
  int q = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y, b = blockIdx.z;
  int c0 = 4 * q;
  if (c0 >= C) return;
  const float *src = in + ((long long)b * R + r) * C;
  float *dst = out + (long long)b * C * R + r;
  if ((C & 3) == 0) {
    float4 v = reinterpret_cast<const float4 *>(src)[q];
    dst[(long long)c0 * R] = v.x;
    dst[(long long)(c0 + 1) * R] = v.y;
    dst[(long long)(c0 + 2) * R] = v.z;
    dst[(long long)(c0 + 3) * R] = v.w;
  } else {
    for (int c = c0; c < c0 + 4 && c < C; c++) dst[(long long)c * R] = src[c];
  }
}

extern "C" void permute_021(const float *in, float *out, int B, int R, int C) {
  if (B <= 0 || R <= 0 || C <= 0) return;
  int quads = (C + 3) / 4;
  dim3 grid((quads + 127) / 128, R, B);
  perm_vec<<<grid, 128>>>(in, out, B, R, C);
}
