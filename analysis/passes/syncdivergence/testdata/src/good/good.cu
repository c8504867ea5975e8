__global__ void fine(const float* in, float* out, int n) { // want kernel=fine sync_divergent:"0"
  __shared__ float s[256];
  if (threadIdx.x < blockDim.x / 2) s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (n > 16) {
    __syncthreads(); // uniform condition
  }
  for (int t = 0; t < n; t += 256) {
    s[threadIdx.x] = in[t + threadIdx.x];
    __syncthreads();
  }
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  out[blockIdx.x] = s[0];
}

// Breaks and continues that every thread takes alike, or that leave only
// an inner loop or a switch, or a continue after the barrier, skip no
// barrier for some threads only.
__global__ void exits(float* x, int iters, int mode) { // want kernel=exits sync_divergent:"0"
  __shared__ float s[256];
  for (int k = 0; k < iters; ++k) {
    if (k == mode) break;
    for (int j = 0; j < 4; ++j) {
      if (threadIdx.x == j) break;
      s[threadIdx.x] += 1.0f;
    }
    switch (threadIdx.x & 3) {
    case 0: s[threadIdx.x] *= 2.0f; break;
    default: break;
    }
    __syncthreads();
    if (threadIdx.x > 7) continue;
    x[threadIdx.x] = s[threadIdx.x];
  }
}
