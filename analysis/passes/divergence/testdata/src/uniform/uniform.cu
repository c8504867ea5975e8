// Warp-uniform and block-uniform conditions do not diverge; guards and
// elections count but are not reported.

__global__ void warps(float* a, int n) { // want kernel=warps div:"0"
  int tid = threadIdx.x;
  int warp = tid / 32;
  if (threadIdx.x / 32 == 0) a[tid] = 1.0f;
  if (warp == 3) a[tid] = 2.0f;
  if ((tid >> 5) & 1) a[tid] = 3.0f;
  if (tid / warpSize > 2) a[tid] = 4.0f;
  if (tid < 64) a[tid] = 5.0f;
  if (blockIdx.x == 0 && n > 16) a[0] = 6.0f;
  switch (blockDim.x) { case 256: a[1] = 0; break; default: break; }
  float x = tid % 2 ? 1.0f : 2.0f; // a select, not a branch
  a[tid] += x;
}

__global__ void reduce(float* out, const float* in, int n) { // want kernel=reduce div:"10"
  __shared__ float s[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
  if (i >= n) return;
}

// With 32-wide rows threadIdx.y is the same in a whole warp; with 16-wide
// rows a warp spans two values of it.
__global__ void rows32(float* a) { // want kernel=rows32 div:"0"
  if (threadIdx.y == 0) a[threadIdx.x] = 0;
}
__global__ void rows16(float* a) { // want kernel=rows16 div:"1"
  if (threadIdx.y == 0) a[threadIdx.x] = 0; // want `branch on threadIdx.y == 0 diverges inside every warp`
}
void host(float* a) {
  rows32<<<1, dim3(32, 8)>>>(a);
  rows16<<<1, dim3(16, 16)>>>(a);
}

// Cooperative groups' thread_rank() numbers the threads one by one, so
// == 0 elects one thread, as tid == 0 does: counted, not reported.
namespace cg = cooperative_groups;
__global__ void elect(float* out, const float* in) { // want kernel=elect div:"2"
  cg::thread_block b = cg::this_thread_block();
  if (b.thread_rank() == 0) out[blockIdx.x] = in[0];
  if (cg::this_thread_block().thread_rank() != 3) out[blockIdx.x + 1] = in[1];
}
