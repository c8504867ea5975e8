// Issue 11: unknown coalescing is absent (unknown), never 0; a broadcast
// is left out of the mean; loads and stores are measured apart.

// Every index is a hash of the thread: nothing is known, so coal is
// unknown rather than the worst value.
__global__ void hashed(const float* in, float* out, int n) { // want kernel=hashed coal:"unknown" coal_load:"unknown" coal_store:"unknown" coal_unknown:"1"
  out[(threadIdx.x * 31) % n] = in[(threadIdx.x * 7919) % n];
}

// One strided load next to a broadcast of w[0]: the broadcast costs one
// transaction and must not pull the mean up to 0.5·(1/8 + 1).
__global__ void scaled(const float* in, const float* w, float* out, int n) { // want kernel=scaled coal_load:"0.125 exact" coal_store:"1 exact"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = w[0] * in[8 * i]; // want "neighbouring threads \\(threadIdx.x\\) are 8 elements"
}

// A strided-write transpose: the loads are coalesced, the stores are not.
__global__ void transpose_write(const float* in, float* out, int n) { // want kernel=transpose_write coal_load:"1" coal_store:"0.125" coal:"0.5625"
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y;
  out[x * 1024 + y] = in[y * 1024 + x]; // want "store to out"
}
