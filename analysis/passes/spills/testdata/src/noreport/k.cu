__global__ void k(float* x) { // want kernel=k spill_bytes:"none" local_bytes:"none"
  x[threadIdx.x] = 0;
}
