__global__ void column33(float* out) { // want kernel=column33 bank_conflicts:"1"
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void odd(float* out) { // want kernel=odd bank_conflicts:"1"
  __shared__ float s[32 * 3];
  out[threadIdx.x] = s[3 * threadIdx.x] + s[0];
}

__global__ void doubles(double* out) { // want kernel=doubles bank_conflicts:"1"
  __shared__ double d[256];
  out[threadIdx.x] = d[threadIdx.x];
}

__global__ void noshared(float* out) { // want kernel=noshared bank_conflicts:"1"
  out[threadIdx.x] = 0;
}
