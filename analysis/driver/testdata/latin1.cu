__global__ void k(float *x) { x[0] = 1.0f; }
// café in Latin-1
__global__ void k2(float *x) { x[1] = 2.0f; }
