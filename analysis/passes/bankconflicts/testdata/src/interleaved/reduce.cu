// Issue 11: interleaved addressing (index = 2*s*tid) was not detected.
// With 256 threads s takes 1, 2, ..., 128: the lanes are 2s words apart,
// 2-, 4-, 8-, 16-way and then 32-way conflicts: the two accesses in the
// loop average 19.75 over its 8 trips, the two outside it are
// conflict-free: (2·8·19.75 + 2) / 18 = 17.67.
__global__ void reduce_interleaved(const float* in, float* out) { // want kernel=reduce_interleaved bank_conflicts:"17.667±0.01 exact"
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = 1; s < 256; s *= 2) {
    int index = 2 * s * tid;
    if (index < 256) sdata[index] += sdata[index + s]; // want `store sdata\[index\] has a 32-way bank conflict: neighbouring threads are 32 elements` `load sdata\[index \+ s\] has a 32-way`
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Sequential addressing (sdata[tid] += sdata[tid + s]) has none.
__global__ void reduce_sequential(const float* in, float* out) { // want kernel=reduce_sequential bank_conflicts:"1"
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = 128; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void launch(const float* in, float* out, int n) {
  reduce_interleaved<<<n / 256, 256>>>(in, out);
  reduce_sequential<<<n / 256, 256>>>(in, out);
}
