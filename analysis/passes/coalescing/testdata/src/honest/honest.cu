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

// A 16x16 block: A[row * K + k] is the same element for the 16 lanes of a
// row, two sectors for the warp, fewer than a stride-1 request's four: a
// partial broadcast, left out like a broadcast (it read as 2x the ideal).
__global__ void rows(const float* A, const float* B, float* C, int K) { // want kernel=rows coal_load:"1" coal:"1"
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < K; k++) acc += A[row * K + k] * B[k * 1024 + col];
  C[row * 1024 + col] = acc;
}

// An offset of k / 2 for a run-time k is one value for the whole grid:
// the index stays affine in the thread (it was unknown, half of conv1d's
// accesses).
__global__ void taps(const float* x, float* y, int n, int k) { // want kernel=taps coal:"1" coal_unknown:"0"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i - k / 2];
}

void launch_rows(const float* A, const float* B, float* C, int K) {
  rows<<<dim3(64, 64), dim3(16, 16)>>>(A, B, C, K);
}
