__global__ void half(const float* in, float* out) { // want kernel=half sync_divergent:"1"
  __shared__ float tile[256];
  if (threadIdx.x < blockDim.x / 2) {
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads(); // want `__syncthreads\(\) is reached only by the threads for which \(threadIdx.x < blockDim.x / 2\) holds, and that condition differs between threads`
  }
  out[threadIdx.x] = tile[0];
}

__global__ void warp0(float* out) { // want kernel=warp0 sync_divergent:"1"
  __shared__ float s[32];
  if (threadIdx.x < 32) {
    s[threadIdx.x] = 0;
    __syncthreads(); // want `differs between the warps of a block`
  }
  out[threadIdx.x] = s[0];
}

__global__ void loop(const float* in, float* out, int n) { // want kernel=loop sync_divergent:"1"
  __shared__ float s[128];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s[threadIdx.x] = in[i];
    __syncthreads(); // want `for which i < n holds`
    out[i] = s[127 - threadIdx.x];
  }
}

__device__ void wait() { __syncthreads(); } // want `__syncthreads\(\) is reached only`
__global__ void viaflag(const float* in, float* out) { // want kernel=viaflag sync_divergent:"1"
  __shared__ float s[64];
  float v = in[threadIdx.x];
  s[threadIdx.x] = v;
  if (v > 0.0f) { wait(); }
  out[threadIdx.x] = s[0];
}

// The barrier in the else arm is reached where the condition does not hold.
__global__ void elsearm(float* out) { // want kernel=elsearm sync_divergent:"1"
  __shared__ float s[64];
  if (threadIdx.x < 16) {
    out[threadIdx.x] = 0;
  } else {
    s[threadIdx.x] = 1;
    __syncthreads(); // want `for which \(threadIdx.x < 16\) does not hold`
  }
}

// A thread that breaks out of the loop misses the barriers of every later
// iteration; one that continues before the barrier misses this one's (both
// were reported only as divergence notes).
__global__ void earlyout(float* x, int iters) { // want kernel=earlyout sync_divergent:"2"
  __shared__ float s[256];
  float v = x[threadIdx.x];
  for (int k = 0; k < iters; ++k) {
    if (fabsf(v) < 1e-6f) break;
    s[threadIdx.x] = v;
    __syncthreads(); // want `is skipped by the threads that leave its loop through the break on line 55, taken when \(fabsf\(v\) < 1e-6f\) holds`
    v = s[255 - threadIdx.x] * 0.5f;
    __syncthreads(); // want `through the break on line 55`
  }
  x[threadIdx.x] = v;
}

__global__ void skipsome(float* x, int iters) { // want kernel=skipsome sync_divergent:"1"
  __shared__ float s[256];
  for (int k = 0; k < iters; ++k) {
    if (threadIdx.x >= k) continue;
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads(); // want `through the continue on line 67, taken when \(threadIdx.x >= k\) holds`
    x[threadIdx.x] = s[0];
  }
}

// The break in the else arm is taken when the condition does not hold.
__global__ void elsebreak(float* x, int iters) { // want kernel=elsebreak sync_divergent:"1"
  __shared__ float s[256];
  for (int k = 0; k < iters; ++k) {
    if (x[threadIdx.x] < 1.0f) { x[threadIdx.x] *= 2.0f; } else { break; }
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads(); // want `through the break on line 78, taken when \(x\[threadIdx.x\] < 1.0f\) does not hold`
  }
}
