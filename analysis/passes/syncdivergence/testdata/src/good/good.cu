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
