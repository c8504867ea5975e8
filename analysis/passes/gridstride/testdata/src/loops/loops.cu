__global__ void scale(float* x, int n) { // want kernel=scale grid_stride:"1"
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] *= 2.0f;
}

__global__ void whileloop(float* x, int n) { // want kernel=whileloop grid_stride:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  while (i < n) {
    x[i] = 0;
    i += stride;
  }
}

__global__ void sameStart(float* x, int n) { // want kernel=sameStart grid_stride:"1"
  for (int i = threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] = 1; // want `grid-stride loop over i starts at threadIdx.x in every block, so all blocks process the same elements`
}

#define THREADS 256
__global__ void constBlock(float* x, int n) { // want kernel=constBlock grid_stride:"2"
  int tid = blockIdx.x * THREADS + threadIdx.x;
  for (int i = tid; i < n / 4; i += gridDim.x * THREADS) x[i] = 1;
  for (int i = (n / 4) * 4 + tid; i < n; i += gridDim.x * THREADS) x[i] = 2;
}

__global__ void plain(float* x, int n) { // want kernel=plain grid_stride:"0"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0;
  for (int k = 0; k < n; k++) x[k] += 1;
}
