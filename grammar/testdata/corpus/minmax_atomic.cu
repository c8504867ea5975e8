#include <cuda_runtime.h>

// atomicMin/atomicMax for floats through the integer ordering trick.
__device__ __forceinline__ float atomicMaxFloat(float *addr, float value) {
  float old;
  old = (value >= 0) ? __int_as_float(atomicMax((int *)addr, __float_as_int(value)))
                     : __uint_as_float(atomicMin((unsigned int *)addr, __float_as_uint(value)));
  return old;
}

__device__ float atomicMinFloatCAS(float *address, float val) {
  int *address_as_i = (int *)address;
  int old = *address_as_i, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_i, assumed, __float_as_int(fminf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void minmax(const float *x, int n, float *gmin, float *gmax) {
  __shared__ float smin, smax;
  if (threadIdx.x == 0) {
    smin = 3.4e38f;
    smax = -3.4e38f;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicMinFloatCAS(&smin, x[i]);
    atomicMaxFloat(&smax, x[i]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicMinFloatCAS(gmin, smin);
    atomicMaxFloat(gmax, smax);
  }
}
