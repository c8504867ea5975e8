// Scalar access; a read-only pointer already const __restrict__ and
// pointers that are written or escape are not reported.
__global__ void axpy(float a, const float* __restrict__ x, float* y, int n) { // want kernel=axpy vectorized:"0" readonly:"0.5" restrict:"0.5"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__device__ void store(float* p, int i) { p[i] = 0; }
__global__ void escapes(const float* x, float* y, float* z) { // want kernel=escapes restrict:"0" `x is only read by escapes`
  store(z, threadIdx.x);
  y[threadIdx.x] = z[threadIdx.x];
  y[threadIdx.x + 1] = x[0];
}

__global__ void one(const float* x) { // want kernel=one restrict:"0" readonly:"0"
  float v = x[threadIdx.x];
}
