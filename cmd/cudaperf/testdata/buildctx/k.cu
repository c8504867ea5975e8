#include <config.h>
__global__ void k(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = 0.0f;
}

void run(float *x, int n) {
#ifdef SMALL
  k<<<4, 256>>>(x, n);
#else
  k<<<1024, 256>>>(x, n);
#endif
  k<<<1024, BLOCK>>>(x, n);
}
