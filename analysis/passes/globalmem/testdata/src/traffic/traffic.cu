__global__ void copy(const float* in, float* out) { // want kernel=copy gmem:"2" gmem_bytes:"8"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

__global__ void accumulate(const float4* in, double* out, int n) { // want kernel=accumulate gmem:"768" gmem_bytes:"8192"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 256; k++) out[i] += in[k * n + i].x; // a read-modify-write: not hoistable
}

__global__ void outer(const float* x, const float* w, float* y, int n) { // want kernel=outer gmem:"64"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; k++) y[k * n + i] += x[i] * w[k]; // want `global load x\[i\] does not change inside the loop over k but is repeated in every iteration; load it into a register`
}
