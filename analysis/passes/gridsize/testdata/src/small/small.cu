__global__ void reduce(const float* x, float* out, int n) { // want kernel=reduce grid_fill:"1 exact"
  out[blockIdx.x] = x[threadIdx.x];
}

void host(const float* x, float* out, int n) {
  reduce<<<4, 1024>>>(x, out, n); // want `a grid of 4 blocks leaves 128 of the 132 SMs of the NVIDIA H200 idle; launch at least 132 blocks`
  reduce<<<264, 256>>>(x, out, n);
  reduce<<<dim3(1, 70000), 32>>>(x, out, n); // want `grid.y = 70000 is outside the limit 1..65535`
}

// Issue 11: grid_fill came from the smallest launch (the mean over the
// constant grids only): the last step of a reduction, one block, made
// this kernel read 1/132 though its main launch is sized by n.
__global__ void partial(const float* x, float* out, int n) { // want kernel=partial grid_fill:"1 estimated"
  out[blockIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
}

// A kernel launched only with a small constant grid keeps its fill.
__global__ void tiny(float* out) { // want kernel=tiny grid_fill:"0.0303 exact"
  out[threadIdx.x] = 0;
}

void reduce_all(const float* x, float* out, int n) {
  partial<<<(n + 255) / 256, 256>>>(x, out, n);
  partial<<<1, 256>>>(out, out, 256); // want `a grid of 1 blocks`
  tiny<<<4, 32>>>(out); // want `a grid of 4 blocks`
}
