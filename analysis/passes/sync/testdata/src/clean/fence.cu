// A barrier after an atomic or a fence is not flagged.
__global__ void counter(unsigned* count, float* out) { // want kernel=counter sync:"1"
  if (threadIdx.x == 0) atomicAdd(count, 1u);
  __threadfence();
  __syncthreads();
  out[threadIdx.x] = 0;
}

__global__ void none(float* out) { // want kernel=none sync:"0"
  out[threadIdx.x] = 1;
}
