__global__ void hoisted(const float* __restrict__ x, const float* w, float* y, int n) { // want kernel=hoisted gmem:"34"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float xi = x[i];
  float acc = 0.0f;
  for (int k = 0; k < n; k++) acc += xi * w[k * n + i] + x[i];
  y[i] = acc;
}

__global__ void none(int n) { // want kernel=none gmem:"0" gmem_bytes:"0"
}
