// Array-of-structures access: each of the three stores is strided, but
// together they write contiguous memory, so no DRAM sectors are wasted.
__global__ void xyz(const float* in, float* acc, int n) { // want kernel=xyz coal:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  acc[3 * i] = v; // want `global acc\[3 \* i\] is strided \(neighbouring threads 3 elements apart\) but it and the 2 accesses next to it cover contiguous memory`
  acc[3 * i + 1] = v;
  acc[3 * i + 2] = v;
}

// Two of every four floats: half of each sector is wasted even as a group.
__global__ void half(const float* in, float* out) { // want kernel=half coal:"0.667"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[4 * i] + in[4 * i + 1]; // want `in\[4 \* i\] is uncoalesced` `in\[4 \* i \+ 1\] is uncoalesced`
}

// A stencil's shifted neighbours are one group: no waste. (The store, one
// element off the 32-byte grid, touches 5 sectors instead of 4.)
__global__ void stencil(const float* in, float* out) { // want kernel=stencil coal:"0.95"
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  out[i] = in[i - 1] + in[i] + in[i + 1];
}

// Four consecutive elements per thread in a small loop: strided requests,
// but the iterations together read and write contiguous memory.
__global__ void chunk4(const float* x, float* y, int n) { // want kernel=chunk4 coal:"1"
  long base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  for (int k = 0; k < 4; ++k) {
    long i = base + k;
    if (i < n) y[i] = 2.0f * x[i]; // want `global y\[i\] is strided \(neighbouring threads 4 elements apart\) but the iterations of its loop cover contiguous memory` `global x\[i\] is strided`
  }
}

// Five contiguous floats per thread at a run-time stride: a group, whose
// stride is named as written (a stand-in number was printed) and whose
// waste is said (it was "no sectors are wasted").
__global__ void five(float* __restrict__ x, int s) { // want kernel=five coal:"0.625"
  x[threadIdx.x * s] = 1.f; // want `global x\[threadIdx.x \* s\] is strided \(neighbouring threads s elements apart\) but it and the 4 accesses next to it cover contiguous memory, so about 38% of the bytes of the sectors they touch go unused`
  x[threadIdx.x * s + 1] = 2.f;
  x[threadIdx.x * s + 2] = 3.f;
  x[threadIdx.x * s + 3] = 4.f;
  x[threadIdx.x * s + 4] = 0.f;
}
