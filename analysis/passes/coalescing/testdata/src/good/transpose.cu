#define TILE 32

// The tiled transpose reads and writes global memory with stride 1 and
// does the transposition in shared memory: no diagnostics.
__global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int w, int h) { // want kernel=transpose coal:"1"
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void gridstride(const float* in, float* out, int n) { // want kernel=gridstride coal:"1"
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = 2.0f * in[i];
  }
}
