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
  if (lane < 16) a[0] = 0; // want `branch on lane < 16 splits every warp into two groups`
}

__global__ void data(const float* in, float* out, int n) { // want kernel=data div:"2"
  // i < n is a bounds guard (only the last warp splits): counted, not reported.
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

// The lane-election and bounds idioms of warp-level code are counted but
// not reported; an alternating pattern is.
#define THREADS 256
__global__ void idioms(const float* x, float* out, int n, int cols) { // want kernel=idioms div:"5"
  int lane = threadIdx.x & 31;
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long i = (t % 4096) * cols + t / 4096;
  int nq = n / 4;
  if (lane == 0) out[0] = 1;
  if (lane == THREADS / 32 - 1) out[1] = 1;
  if (i < n) out[i] = x[i];
  if (t < nq) out[t] = 0;
  if ((threadIdx.x & 3) == 1) out[2] = 1; // want `branch on \(threadIdx.x & 3\) == 1 diverges inside every warp`
}

// A device function's parameters take the thread dependence of the
// arguments it is called with.
__device__ void onlane(float* a, int lane) {
  if (lane == 3) a[0] = 1.0f;
  if (lane % 2) a[1] = 2.0f; // want `branch on lane % 2 diverges inside every warp`
}
__global__ void calllane(float* a) { // want kernel=calllane div:"2"
  onlane(a, threadIdx.x & 31);
}
__global__ void calluniform(float* a) { // want kernel=calluniform div:"0"
  onlane(a, blockIdx.x);
}
