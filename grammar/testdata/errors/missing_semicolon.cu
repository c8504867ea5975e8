__global__ void k(float *a) {
  int i = threadIdx.x
  a[i] = 0.0f;
}
