// strategy: persistent grid-stride + vectorized loads - WAVES blocks per SM of BLOCK threads loop over the array, each iteration issuing UNROLL independent VEC-float loads of a and b before any store
// sweep: BLOCK = 128, 256, 512, 1024
// sweep: VEC = 1, 2, 4
// sweep: UNROLL = 1, 2, 4
// sweep: WAVES = 1, 4, 16
#include <cuda_runtime.h>

typedef struct __align__(4 * VEC) {
  float e[VEC];
} pack_t;

__global__ void __launch_bounds__(BLOCK) vadd_persistent(const pack_t *__restrict__ a, const pack_t *__restrict__ b,
                                                         pack_t *__restrict__ c, long long npack) {
  const long long stride = (long long)gridDim.x * BLOCK;
  long long p = (long long)blockIdx.x * BLOCK + threadIdx.x;
  // Main loop: UNROLL packs in flight per thread, all in range.
  for (; p + (UNROLL - 1) * stride < npack; p += UNROLL * stride) {
    pack_t ra[UNROLL], rb[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; u++) {
      ra[u] = a[p + u * stride];
      rb[u] = b[p + u * stride];
    }
#pragma unroll
    for (int u = 0; u < UNROLL; u++) {
#pragma unroll
      for (int e = 0; e < VEC; e++) ra[u].e[e] += rb[u].e[e];
      c[p + u * stride] = ra[u];
    }
  }
  for (; p < npack; p += stride) {
    pack_t x = a[p], y = b[p];
#pragma unroll
    for (int e = 0; e < VEC; e++) x.e[e] += y.e[e];
    c[p] = x;
  }
}

// The n % VEC floats after the last whole pack.
__global__ void vadd_rest(const float *a, const float *b, float *c, int from, int n) {
  int i = from + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
  if (n <= 0) return;
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  long long npack = n / VEC;
  if (npack > 0) {
    long long need = (npack + BLOCK - 1) / BLOCK;
    long long blocks = (long long)sms * WAVES;
    if (blocks > need) blocks = need;
    vadd_persistent<<<(int)blocks, BLOCK>>>((const pack_t *)a, (const pack_t *)b, (pack_t *)c, npack);
  }
  if (n % VEC) vadd_rest<<<1, 32>>>(a, b, c, (int)(npack * VEC), n);
}
