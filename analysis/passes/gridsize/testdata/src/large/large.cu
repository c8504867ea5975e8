__global__ void k(float* x, int n) { // want kernel=k grid_fill:"1"
  x[blockIdx.x * blockDim.x + threadIdx.x] = 0;
}
__global__ void unlaunched(float* x) { // want kernel=unlaunched grid_fill:"1"
}
void host(float* x, int n) {
  k<<<(n + 255) / 256, 256>>>(x, n);
  k<<<dim3(16, 16), 256>>>(x, n);
}
