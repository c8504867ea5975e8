__constant__ float coeffs[16];
#define TILE 32
__global__ void k(const float* __restrict__ a, float4* b, int n) {
  __shared__ float tile[TILE][TILE + 1];
  extern __shared__ double dyn[];
  float acc[4];
  int i = 3, j;
  dim3 blk(TILE, 8);
}
