__global__ void gemm(const float* A, const float* B, float* C, int n) { // want kernel=gemm tensor_cores:"0" tensor_core_loads:"0"
  float s = 0;
  for (int k = 0; k < n; k++) s += A[k] * B[k];
  C[threadIdx.x] = s;
}
