#define TILE 32

__global__ void column32(float* out) { // want kernel=column32 bank_conflicts:"16.5"
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // want `shared-memory load tile\[threadIdx.x\]\[threadIdx.y\] has a 32-way bank conflict: .*declare tile\[…\]\[33\]`
}

__global__ void stride2(float* out) { // want kernel=stride2 bank_conflicts:"2"
  __shared__ float s[64];
  s[2 * threadIdx.x] = 1.0f; // want `2-way bank conflict`
}

__global__ void stride16(int* out) { // want kernel=stride16 bank_conflicts:"16"
  __shared__ int s[TILE * 16];
  out[threadIdx.x] = s[threadIdx.x * 16]; // want `16-way bank conflict`
}

// 8-byte elements are served per half warp.
__global__ void doubles(double* out) { // want kernel=doubles bank_conflicts:"9"
  __shared__ double d[32][32];
  out[threadIdx.x] = d[threadIdx.x][0]; // want `16-way`
  out[threadIdx.x] += d[0][2 * threadIdx.x]; // want `2-way`
}
