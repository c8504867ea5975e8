__global__ void sum(const float* in, float* out, int n) { // want kernel=sum atomics:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&out[0], in[i]); // want `every thread performs atomicAdd on the same global address \(&out\[0\] does not depend on the thread\)`
}

__global__ void count(const int* in, unsigned* counter, int n) { // want kernel=count atomics:"16"
  for (int k = 0; k < 16; k++) {
    atomicAdd(counter, 1u); // want `same global address \(counter`
  }
}

__global__ void perblock(float* out) { // want kernel=perblock atomics:"1"
  atomicMax_block((int*)&out[blockIdx.x], 3); // want `atomicMax_block on the same global address`
}

// A bounds guard or a grid-stride loop lets nearly every thread through:
// still contended (the guard had been taken for an election).
__global__ void guarded(float* out, const float* __restrict__ in, int n) { // want kernel=guarded atomics:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]); // want `every thread performs atomicAdd on the same global address \(out`
}

__global__ void strided(float* out, const float* __restrict__ in, int n) { // want kernel=strided atomics:"1"
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(out, in[i]); // want `every thread performs atomicAdd on the same global address \(out`
}

// One global address passed to a device function is still one address.
__device__ void add_to(float* total, float v) { atomicAdd(total, v); } // want `every thread performs atomicAdd on the same global address \(total`
__global__ void viadevice(float* out, const float* __restrict__ in, int n) { // want kernel=viadevice atomics:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) add_to(out, in[i]);
}

// A test of data or a bound every lane passes elects nobody.
__global__ void filtered(const float* __restrict__ in, float* out, unsigned* cnt, int n) { // want kernel=filtered atomics:"2"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] < 0) atomicAdd(&cnt[0], 1u); // want `every thread performs atomicAdd on the same global address \(&cnt\[0\]`
  if ((threadIdx.x & 31) < 32) atomicAdd(&out[0], 1.0f); // want `every thread performs atomicAdd on the same global address \(&out\[0\]`
}
