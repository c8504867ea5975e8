// strategy: vectorized loads + register blocking - VEC-float vector loads, ITEMS vectors per thread (block-strided, or a contiguous run per thread when CONTIG), BLOCK threads, one pass over an exactly sized grid
// sweep: BLOCK = 64, 128, 256, 512, 1024
// sweep: ITEMS = 1, 2, 4, 8
// sweep: VEC = 1, 2, 4
// sweep: CONTIG = 0, 1
// sweep-require: CONTIG * ITEMS != 1
#include <cuda_runtime.h>

// VEC consecutive floats moved as one load or store (ld.global.v2/v4).
struct __align__(4 * VEC) vecf {
  float v[VEC];
};

__device__ __forceinline__ float clamp_scale1(float v, float lo, float hi, float scale) {
  return scale * fminf(fmaxf(v, lo), hi);
}

__global__ void __launch_bounds__(BLOCK) clamp_scale_vec(const float *__restrict__ x, float *__restrict__ y, float lo,
                                                         float hi, float scale, int n) {
  long long nvec = n / VEC;
#pragma unroll
  for (int it = 0; it < ITEMS; it++) {
    // CONTIG: thread t owns vectors t*ITEMS .. t*ITEMS+ITEMS-1 (strided across a warp);
    // otherwise the block's threads cover ITEMS consecutive runs of BLOCK vectors.
    long long j = CONTIG ? ((long long)blockIdx.x * BLOCK + threadIdx.x) * ITEMS + it
                         : (long long)blockIdx.x * BLOCK * ITEMS + (long long)it * BLOCK + threadIdx.x;
    if (j < nvec) {
      vecf a = reinterpret_cast<const vecf *>(x)[j];
#pragma unroll
      for (int k = 0; k < VEC; k++) a.v[k] = clamp_scale1(a.v[k], lo, hi, scale);
      reinterpret_cast<vecf *>(y)[j] = a;
    }
  }
  // The last n % VEC elements, by the first threads of block 0.
  long long tail = nvec * VEC + threadIdx.x;
  if (blockIdx.x == 0 && tail < n) y[tail] = clamp_scale1(x[tail], lo, hi, scale);
}

extern "C" void clamp_scale(const float *x, float *y, float lo, float hi, float scale, int n) {
  if (n <= 0) return;
  long long per = (long long)BLOCK * ITEMS;
  long long blocks = (n / VEC + per - 1) / per;
  if (blocks < 1) blocks = 1;
  clamp_scale_vec<<<(unsigned)blocks, BLOCK>>>(x, y, lo, hi, scale, n);
}
