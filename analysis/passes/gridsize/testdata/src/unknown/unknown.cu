// Launch sizes this site cannot see are unknown, never 1: no finding.
// And a <<<1, 1>>> launch is serial on purpose.
__global__ void fill(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] = 0.0f;
}

__global__ void flag(int *f) { *f = 1; }

// a dim3 parameter: the caller decides
void launch_param(float *x, int n, dim3 grid, dim3 block) {
  fill<<<grid, block>>>(x, n);
}

// a dim3 assigned whole after its declaration
void launch_assigned(float *x, int n, bool big) {
  dim3 grid;
  dim3 block(256);
  if (big) {
    grid = dim3((n + 255) / 256, 1);
  } else {
    grid = dim3(1024, 1);
  }
  fill<<<grid, block>>>(x, n);
}

// a dim3 filled in by a function that takes its address
void size_it(dim3 *g, int n);
void launch_out_param(float *x, int n) {
  dim3 grid;
  size_it(&grid, n);
  fill<<<grid, 256>>>(x, n);
}

void serial(int *f) {
  flag<<<1, 1>>>(f);
}

// a default-constructed dim3 is (1, 1, 1): that is known
void launch_default(float *x, int n) {
  dim3 grid;
  fill<<<grid, 256>>>(x, n); // want `a grid of 1 blocks leaves 131 of the 132 SMs`
}
