__global__ void reduce(const float* x, float* out, int n) { // want kernel=reduce grid_fill:"0.515"
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[blockIdx.x] += x[i];
}

// One block per tile: the grid is the problem's size, so a small grid is
// a small problem, not idle SMs to fill.
__global__ void tile(float* x) { // want kernel=tile grid_fill:"0.00758"
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
__global__ void show(float* x) { // want kernel=show grid_fill:"0.0303"
  x[blockIdx.x] = gridDim.x;
}

void demo(float* x) {
  show<<<4, 32>>>(x);
}
