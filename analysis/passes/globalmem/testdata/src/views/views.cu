// Issue 11: float4 accesses through reinterpret_cast into local pointers.
// Each kernel loads and stores one float4 per thread: 2 accesses, 32 bytes.

__global__ void declared(const float* __restrict__ x, float* __restrict__ y, int n) { // want kernel=declared gmem:"2" gmem_bytes:"32"
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float4* y4 = reinterpret_cast<float4*>(y);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = x4[i];
  v.x *= 2.0f;
  y4[i] = v;
}

// auto, and a cast of an offset pointer: the load was missed.
__global__ void autoptr(const float* __restrict__ x, float* __restrict__ y) { // want kernel=autoptr gmem:"2" gmem_bytes:"32"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto in = reinterpret_cast<const float4*>(x + 4 * i);
  float4 v = *in;
  v.y *= 2.0f;
  *reinterpret_cast<float4*>(y + 4 * i) = v;
}

// A pointer declared first and assigned once: the load was missed.
__global__ void assigned(const float* x, float* y) { // want kernel=assigned gmem:"2" gmem_bytes:"32"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4* p;
  p = (const float4*)x;
  float4 v = p[i];
  ((float4*)y)[i] = v;
}
