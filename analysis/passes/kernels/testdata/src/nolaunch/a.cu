// A file with kernels but no launches (a library): kernels counts the
// kernels it defines, launches is 0.
// want kernels:"1" launches:"0"
__global__ void lib_kernel(float *x) { x[threadIdx.x] = 1.0f; }
