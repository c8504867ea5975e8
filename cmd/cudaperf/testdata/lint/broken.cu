// A file with a syntax error in its second kernel: the first is still analyzed.
__global__ void fine(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2.0f * a[i];
}

__global__ void broken(float *a {
  a[threadIdx.x] = 1.0f
}
