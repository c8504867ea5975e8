#include <cuda_runtime.h>

struct Welford {
  float mean;
  float m2;
  float count;
};

__device__ __forceinline__ Welford welford_combine(Welford a, Welford b) {
  float count = a.count + b.count;
  if (count == 0.f) return a;
  float delta = b.mean - a.mean;
  float nb_over_n = b.count / count;
  Welford r;
  r.mean = a.mean + delta * nb_over_n;
  r.m2 = a.m2 + b.m2 + delta * delta * a.count * nb_over_n;
  r.count = count;
  return r;
}

__device__ Welford warp_welford(Welford w) {
  for (int mask = 16; mask > 0; mask >>= 1) {
    Welford o;
    o.mean = __shfl_xor_sync(0xffffffffu, w.mean, mask);
    o.m2 = __shfl_xor_sync(0xffffffffu, w.m2, mask);
    o.count = __shfl_xor_sync(0xffffffffu, w.count, mask);
    w = welford_combine(w, o);
  }
  return w;
}

// Per-row mean and variance (one warp per row), e.g. for normalization layers.
__global__ void row_moments(const float *x, float *mean, float *var, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  Welford w{0.f, 0.f, 0.f};
  for (int c = lane; c < cols; c += 32) {
    float v = x[(size_t)row * cols + c];
    w = welford_combine(w, Welford{v, 0.f, 1.f});
  }
  w = warp_welford(w);
  if (lane == 0) {
    mean[row] = w.mean;
    var[row] = w.m2 / w.count;
  }
}
