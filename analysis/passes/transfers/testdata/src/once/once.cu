// want xfer:"2"
__global__ void k(float* d) { d[threadIdx.x] *= 2.0f; }

void run(float* d, float* h, int n) {
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int i = 0; i < 10; i++) k<<<1, 256>>>(d);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemset(d, 0, n);
}
