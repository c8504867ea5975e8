#include <cuda_runtime.h>

// Right-looking LU without pivoting, one column step per launch pair:
// scale the column below the pivot, then the rank-1 update of the trailing matrix.
__global__ void lu_scale_column(double *A, int n, int k) {
  int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) A[i * n + k] /= A[k * n + k];
}

__global__ void lu_update_trailing(double *A, int n, int k) {
  int i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n) A[i * n + j] -= A[i * n + k] * A[k * n + j];
}

void lu(double *A, int n) {
  for (int k = 0; k < n - 1; ++k) {
    int rem = n - k - 1;
    lu_scale_column<<<(rem + 127) / 128, 128>>>(A, n, k);
    dim3 b(16, 16);
    dim3 g((rem + 15) / 16, (rem + 15) / 16);
    lu_update_trailing<<<g, b>>>(A, n, k);
  }
  cudaDeviceSynchronize();
}
