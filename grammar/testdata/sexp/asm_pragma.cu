// Inline PTX and unroll pragmas.
__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ void st_release(int *p, int v) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__global__ void dot4(const float4 *a, const float4 *b, float *out) {
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    float4 x = a[k], y = b[k];
    acc += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
  }
  for (int r = 0; r < 2; ++r)
#pragma unroll 2
    for (int c = 0; c < 2; ++c) acc *= 0.5f;
  asm volatile("bar.sync 0;" ::: "memory");
  *out = acc;
}
