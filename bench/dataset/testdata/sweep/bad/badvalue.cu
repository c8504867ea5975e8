// strategy: test
// sweep: BLOCK = 64, 12 8
__global__ void k(float *y) { y[threadIdx.x] = BLOCK; }
