// strategy: test
// sweep: BLOCK = 64, 128
// sweep-require: BLOCK * ITEMS <= 256
__global__ void k(float *y) { y[threadIdx.x] = BLOCK; }
