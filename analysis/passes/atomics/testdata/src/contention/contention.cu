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
