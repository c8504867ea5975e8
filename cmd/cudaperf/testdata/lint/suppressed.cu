__global__ void strided(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // cudaperf:ignore coalescing the stride is a deliberate gather in this test
  if (i < n) out[i] = in[i * 32];
}
