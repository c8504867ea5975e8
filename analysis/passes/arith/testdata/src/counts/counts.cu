// The package doc's example: 16 iterations of a multiply and an add
// (32 FLOPs), plus 16 increments and 16 comparisons of k.
__global__ void dot16(const float* a, const float* b, float* out) { // want kernel=dot16 flops:"32" ops:"64"
  float acc = 0.0f;
  for (int k = 0; k < 16; k++) acc += a[k] * b[k];
  out[threadIdx.x] = acc;
}

__global__ void saxpy(float alpha, const float* x, float* y, int n) { // want kernel=saxpy flops:"2" ops:"5"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

__global__ void math(const double* x, double* y) { // want kernel=math flops:"6" ops:"6"
  double v = x[threadIdx.x];
  y[threadIdx.x] = fma(v, v, 1.0) + sqrt(v) - exp(v);
}

__device__ float sq(float v) { return v * v; }
__global__ void calls(float4* p) { // want kernel=calls flops:"20" ops:"40"
  for (int r = 0; r < 10; r++) p[r].x = sq(p[r].y) + 1.0f;
}
