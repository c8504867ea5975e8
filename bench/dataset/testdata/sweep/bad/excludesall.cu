// strategy: test
// sweep: BLOCK = 64, 128
// sweep-require: BLOCK > 1024
__global__ void k(float *y) { y[threadIdx.x] = BLOCK; }
