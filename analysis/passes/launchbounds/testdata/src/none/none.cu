__global__ void plain(float* x) { // want kernel=plain launch_bounds:"0"
  x[threadIdx.x] = 1;
}
void host(float* x) { plain<<<1, 1024>>>(x); }
