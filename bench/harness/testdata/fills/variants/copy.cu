// strategy: copy one input, one thread per element
__global__ void copy_kernel(const float *u, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = u[i];
}

extern "C" void fills(const float *u, const double *g, const int *r, const float *z, const __half *h, const unsigned char *b, float *out, int n) {
  copy_kernel<<<(n + 255) / 256, 256>>>(u, out, n);
}
