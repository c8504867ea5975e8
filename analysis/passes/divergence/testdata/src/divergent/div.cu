__global__ void oddeven(float* a) { // want kernel=oddeven div:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2) { // want `branch on threadIdx.x % 2 diverges inside every warp`
    a[i] = a[i] * 2.0f;
  } else {
    a[i] = a[i] + 1.0f;
  }
}

__global__ void bitmask(float* a, int n) { // want kernel=bitmask div:"17"
  int lane = threadIdx.x & 31;
  for (int k = 0; k < 16; k++) {
    if ((lane & 1) == 0) a[k] += 1.0f; // want `branch on \(lane & 1\) == 0 diverges`
  }
  if (lane < 16) a[0] = 0; // want `branch on lane < 16 diverges inside every warp`
}

__global__ void data(const float* in, float* out, int n) { // want kernel=data div:"2"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    if (v > 0.0f) out[i] = v; // want `branch on v > 0.0f depends on per-thread data`
  }
}

__device__ void helper(float* a) {
  if (threadIdx.x % 4 == 1) a[threadIdx.x] = 0; // want `threadIdx.x % 4 == 1 diverges`
}
__global__ void calls(float* a) { // want kernel=calls div:"16"
  for (int r = 0; r < 16; r++) helper(a);
}
