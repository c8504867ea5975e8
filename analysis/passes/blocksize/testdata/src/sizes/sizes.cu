#define THREADS 100
constexpr int kTile = 16;

__global__ void scale(float* x, int n) { // want kernel=scale tpb:"125.333 exact"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

__global__ void square(float* x) { // want kernel=square tpb:"unknown"
  x[threadIdx.x] *= x[threadIdx.x];
}

__global__ void __launch_bounds__(512) bounded(float* x) { // want kernel=bounded tpb:"512 estimated"
  x[threadIdx.x] = 0;
}

void host(float* d, int n, int bs) {
  scale<<<(n + THREADS - 1) / THREADS, THREADS>>>(d, n); // want `a block of 100 threads is not a multiple of the warp size \(32\): the last warp of every block runs with 28 of 32 lanes idle; use 96 or 128 threads per block`
  dim3 block(kTile, kTile);
  scale<<<n / 256, block>>>(d, n);
  scale<<<1, 2048>>>(d, n); // want `a block of 2048 threads exceeds the NVIDIA H200 limit of 1024 threads per block: the launch fails`
  scale<<<1, dim3(1, 1, 128)>>>(d, n); // want `block.z = 128 is outside the limit 1..64`
  square<<<n, bs>>>(d);
  scale<<<1, 20>>>(d, n); // want `use 32 threads per block`
}

// Issue 11: a block of c / 2 threads, c = min(m, CHUNK) (bitonic sort),
// gave tpb = 0; its upper bound CHUNK / 2 stands in, as an estimate.
#define CHUNK 1024
__global__ void sort_chunks(float* a, int c) { // want kernel=sort_chunks tpb:"512 estimated"
  a[blockIdx.x * c + threadIdx.x] = 0;
}

// Each kernel's tpb comes from its own launches only, not the mean over
// the file's launches of other kernels.
__global__ void wide(float* a) { // want kernel=wide tpb:"1024 exact"
  a[threadIdx.x] = 0;
}
__global__ void narrow(float* a) { // want kernel=narrow tpb:"64 exact"
  a[threadIdx.x] = 0;
}

void sort(float* a, int m) {
  int c = m < CHUNK ? m : CHUNK;
  sort_chunks<<<m / c, c / 2>>>(a, c);
  wide<<<m / 1024, 1024>>>(a);
  narrow<<<m / 64, 64>>>(a);
}
