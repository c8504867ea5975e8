// strategy: test
// sweep: BLOCK = 64, 128
// sweep: PAD = 0, 1
__global__ void k(float *y) { y[threadIdx.x] = BLOCK; }
