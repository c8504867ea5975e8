__global__ void reduce(const float* x, float* out, int n) { // want kernel=reduce grid_fill:"1 exact"
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[blockIdx.x] += x[i];
}

// One block per tile: the grid is the problem's size, so a small grid is
// a small problem, not idle SMs to fill.
__global__ void tile(float* x) { // want kernel=tile grid_fill:"0.00758 exact"
  x[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}

void host(const float* x, float* out, int n) {
  reduce<<<4, 1024>>>(x, out, n); // want `a grid of 4 blocks leaves 128 of the 132 SMs of the NVIDIA H200 idle; launch at least 132 blocks`
  reduce<<<264, 256>>>(x, out, n);
  reduce<<<dim3(1, 70000), 32>>>(x, out, n); // want `grid.y = 70000 is outside the limit 1..65535`
  tile<<<1, 256>>>(out);
}

// Reading gridDim outside a loop step (a printf, an index) is not a
// grid-stride loop.
__global__ void show(float* x) { // want kernel=show grid_fill:"0.0303 exact"
  x[blockIdx.x] = gridDim.x;
}

void demo(float* x) {
  show<<<4, 32>>>(x);
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
  // Neither kernel strides by the grid: one block per piece of work, so
  // the small grids are small problems (the last step of a reduction), not
  // SMs a bigger grid would fill.
  partial<<<1, 256>>>(out, out, 256);
  tiny<<<4, 32>>>(out);
}
