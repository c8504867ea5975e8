#include <curand_kernel.h>

// Dropout with a counter-based generator: each thread draws 4 uniforms per
// Philox call and handles 4 consecutive elements; reproducible from (seed, offset).
__global__ void dropout_fwd(const float *__restrict__ x, float *__restrict__ y, unsigned char *__restrict__ mask,
                            float p, unsigned long long seed, unsigned long long offset, long n) {
  long idx = blockIdx.x * (long)blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, idx, offset, &state);
  const float scale = 1.f / (1.f - p);
  long base = idx * 4;
  if (base >= n) return;
  float4 r = curand_uniform4(&state);
  float rs[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    long i = base + k;
    if (i < n) {
      bool keep = rs[k] >= p;
      mask[i] = keep;
      y[i] = keep ? x[i] * scale : 0.f;
    }
  }
}

__global__ void dropout_bwd(const float *__restrict__ dy, const unsigned char *__restrict__ mask, float *__restrict__ dx,
                            float p, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) dx[i] = mask[i] ? dy[i] / (1.f - p) : 0.f;
}
