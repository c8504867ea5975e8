// strategy: persistent grid-stride + vectorized loads - WAVES blocks per SM of BLOCK threads loop over the array, each iteration issuing UNROLL independent VEC-float loads of x and y, then the fused multiply-adds and stores
// sweep: BLOCK = 128, 256, 512, 1024
// sweep: VEC = 1, 2, 4
// sweep: UNROLL = 1, 2, 4
// sweep: WAVES = 1, 4, 16
#include <cuda_runtime.h>

typedef struct __align__(4 * VEC) {
  float e[VEC];
} pack_t;

__global__ void __launch_bounds__(BLOCK) saxpy_persistent(const pack_t *__restrict__ x, pack_t *__restrict__ y,
                                                          float alpha, long long npack) {
  const long long stride = (long long)gridDim.x * BLOCK;
  long long p = (long long)blockIdx.x * BLOCK + threadIdx.x;
  for (; p + (UNROLL - 1) * stride < npack; p += UNROLL * stride) {
    pack_t rx[UNROLL], ry[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; u++) {
      rx[u] = x[p + u * stride];
      ry[u] = y[p + u * stride];
    }
#pragma unroll
    for (int u = 0; u < UNROLL; u++) {
#pragma unroll
      for (int e = 0; e < VEC; e++) ry[u].e[e] = fmaf(alpha, rx[u].e[e], ry[u].e[e]);
      y[p + u * stride] = ry[u];
    }
  }
  for (; p < npack; p += stride) {
    pack_t vx = x[p], vy = y[p];
#pragma unroll
    for (int e = 0; e < VEC; e++) vy.e[e] = fmaf(alpha, vx.e[e], vy.e[e]);
    y[p] = vy;
  }
}

// The n % VEC floats after the last whole pack.
__global__ void saxpy_rest(const float *x, float *y, float alpha, int from, int n) {
  int i = from + threadIdx.x;
  if (i < n) y[i] = fmaf(alpha, x[i], y[i]);
}

extern "C" void saxpy(const float *x, float *y, float alpha, int n) {
  if (n <= 0) return;
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  long long npack = n / VEC;
  if (npack > 0) {
    long long need = (npack + BLOCK - 1) / BLOCK;
    long long blocks = (long long)sms * WAVES;
    if (blocks > need) blocks = need;
    saxpy_persistent<<<(int)blocks, BLOCK>>>((const pack_t *)x, (pack_t *)y, alpha, npack);
  }
  if (n % VEC) saxpy_rest<<<1, 32>>>(x, y, alpha, (int)(npack * VEC), n);
}
