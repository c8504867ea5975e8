// strategy: test
// sweep: BLOCK = 64, 128
#define BLOCK 32
__global__ void k(float *y) { y[threadIdx.x] = BLOCK; }
