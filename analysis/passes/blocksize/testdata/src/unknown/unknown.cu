// Block sizes this site cannot see are unknown, never 1: no finding.
__global__ void fill(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.0f;
}

__global__ void flag(int *f) { *f = 1; }

void launch_param(float *x, int n, dim3 block) {
  fill<<<(n + 255) / 256, block>>>(x, n);
}

void launch_assigned(float *x, int n, int w) {
  dim3 block;
  block = dim3(w, 1);
  fill<<<(n + 255) / 256, block>>>(x, n);
}

// <<<1, 1>>> is serial on purpose: no lanes to fill.
void serial(int *f) {
  flag<<<1, 1>>>(f);
}

// One thread in each of many blocks does waste 31 lanes of every warp.
void wasteful(float *x, int n) {
  fill<<<n, 1>>>(x, n); // want `a block of 1 threads is not a multiple of the warp size`
}

// A kernel with no data work (simplePrintf) has no lanes worth filling.
__global__ void hello() { printf("block %d thread %d\n", blockIdx.x, threadIdx.x); }
void greet() {
  dim3 block(2, 2, 2);
  hello<<<2, block>>>();
}
