__global__ void reduce(const float* x, float* out, int n) { // want kernel=reduce grid_fill:"0.515"
  out[blockIdx.x] = x[threadIdx.x];
}

void host(const float* x, float* out, int n) {
  reduce<<<4, 1024>>>(x, out, n); // want `a grid of 4 blocks leaves 128 of the 132 SMs of the NVIDIA H200 idle; launch at least 132 blocks`
  reduce<<<264, 256>>>(x, out, n);
  reduce<<<dim3(1, 70000), 32>>>(x, out, n); // want `grid.y = 70000 is outside the limit 1..65535`
}
