// With 16×16 blocks a warp holds two rows of threadIdx.x, so a column read
// of a 16×16 tile sees 16 distinct rows from lanes 0–15 and again from
// 16–31: banks 0 and 16 for tx even and odd, 8 words each — 8-way. Without
// a launch the analysis assumes whole-warp rows (32 lanes on threadIdx.x).
__global__ void col16(float* out) { // want kernel=col16 bank_conflicts:"4.5"
  __shared__ float tile[16][16];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // want `8-way bank conflict`
}

__global__ void col16unknown(float* out) { // want kernel=col16unknown bank_conflicts:"8.5"
  __shared__ float tile[16][16];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // want `16-way bank conflict`
}

void host(float* d) {
  col16<<<1, dim3(16, 16)>>>(d);
}
