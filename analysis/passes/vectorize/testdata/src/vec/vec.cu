__global__ void copy4(const float4* __restrict__ in, float4* __restrict__ out, int n) { // want kernel=copy4 vectorized:"1" readonly:"1" restrict:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) out[i] = in[i];
}

__global__ void cast(const float* x, float* y, int n) { // want kernel=cast vectorized:"1" readonly:"0" restrict:"0" `x is only read by cast; declare it const float\* __restrict__`
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = reinterpret_cast<const float4*>(x)[i];
  reinterpret_cast<float4*>(y)[i] = v;
}

__global__ void ldg(const float* x, float* y) { // want kernel=ldg vectorized:"0" readonly:"0.5" restrict:"0" `x is only read by ldg`
  y[threadIdx.x] = __ldg(&x[threadIdx.x]) + x[threadIdx.x + 1];
}
