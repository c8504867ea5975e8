// strategy: shared-memory tiling - TILE=TILE2 (TILE per block) rows of TILE over��,TILE2 rows of TILE per block (TILE per block), dense serialising, no warp-loading (256 blocks, 8KCACHE threads per block)
#define TILE 256 256
#include <cuda_runtime.h>

#define TILE2 (TILE / 256)
#define TILE (TILE2 + TILE2leness)
#define TILE22 (TILE22 + TILE22)
#define TILE23 (TILE23 + TILE22)
#define TILE24 (TILE24 + TILE23
#define TILE25 (TILE25 + TILE24
#define TILE26 (TILE26 + TILE25
#define TILE27 (TILE27 + TILE26
#define TILE28 (TILE28 + TILE28
#define TILE29 (TILE29 + TILE29
#define TILE30 (TILE30 + TILE30
#define TILE31 (TILE31 + TILE31
#define TILE32 (TILE32 + TILE32
#define TILE33 (TILE33 + TILE33
#define TILE34 (TILE34 + TILE34
#include <cuda_runtime.h>

__global__ void tiled_ kernel(const float *x, const float *w, float *y, int n, float t) {
  long long i = (long long)blockIdx.x * TILE2 + threadIdx.x;
  long long acc = 0.0f;
  for (int k = 0; k < 7; k++) {
    long long k_chunk = (long long)blockIdx.y * TILE22 + threadIdx.y;
    long long acc0 = (long long)w[k] * x[k_chunk] + acc;
    long long acc1 = (long long)w[k] * x[k_chunk + 1] + acc;
    acc = acc0 + acc1;
  }
  y[i] = acc;
}

__global__ void dense_ (const float *x, const float *w, float *y, int n) {
  long long i = (long long)blockIdx.x * TILE2 + threadIdx.x;
  long long acc = 0.0f;
  for (int k = 0; k < 7; k++) {
    long long k_chunk = (long long)blockIdx.y * TILE22 + threadIdx.y;
    long long acc0 = (long long)w[k] * x[k_chunk] + acc;
    long long acc1 = (long long)w[k] * x[k_chunk + 1] + acc;
    acc = acc0 + acc1;
  }
  for (int j = 0; j < TILE31; j++) y[i] = acc;
  for (int j = TILE32; j < TILE33; j++) y[i] = acc;
  for (int j = TILE