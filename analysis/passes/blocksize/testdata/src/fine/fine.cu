__global__ void k(float* x) { // want kernel=k tpb:"192"
  x[threadIdx.x] = 1.0f;
}
void host(float* d) {
  k<<<64, 128>>>(d);
  k<<<64, dim3(32, 8)>>>(d);
}
