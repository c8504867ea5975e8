// A file with kernels but no launches (a library): kernels is 0.
// want kernels:"0"
__global__ void lib_kernel(float *x) { x[threadIdx.x] = 1.0f; }
