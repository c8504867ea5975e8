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
  for (int i = threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] = 1; // want `grid-stride loop over i is malformed: its start is not the thread's global index`
}

__global__ void badStep(float* x, int n) { // want kernel=badStep grid_stride:"1"
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x) x[i] = 1; // want `its step does not include blockDim`
}

__global__ void plain(float* x, int n) { // want kernel=plain grid_stride:"0"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0;
  for (int k = 0; k < n; k++) x[k] += 1;
}
