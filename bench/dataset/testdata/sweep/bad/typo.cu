// strategy: test
// sweeps: BLOCK = 64, 128
__global__ void k(float *y) { y[threadIdx.x] = BLOCK; }
