#include <cuda_runtime.h>

// Gauss-Jordan inversion of an n x n matrix augmented as [A | I] (n x 2n),
// without pivoting (the caller guarantees a diagonally dominant input).
__global__ void normalize_pivot_row(double *aug, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  double pivot = aug[k * 2 * n + k];
  __syncthreads();
  if (j < 2 * n && j != k) aug[k * 2 * n + j] /= pivot;
}

__global__ void set_pivot_one(double *aug, int n, int k) { aug[k * 2 * n + k] = 1.0; }

__global__ void eliminate(double *aug, int n, int k) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || j >= 2 * n || i == k || j == k) return;
  aug[i * 2 * n + j] -= aug[i * 2 * n + k] * aug[k * 2 * n + j];
}

__global__ void clear_pivot_column(double *aug, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i != k) aug[i * 2 * n + k] = 0.0;
}

void invert(double *aug, int n) {
  for (int k = 0; k < n; ++k) {
    normalize_pivot_row<<<(2 * n + 255) / 256, 256>>>(aug, n, k);
    set_pivot_one<<<1, 1>>>(aug, n, k);
    dim3 block(32, 8);
    dim3 grid((2 * n + 31) / 32, (n + 7) / 8);
    eliminate<<<grid, block>>>(aug, n, k);
    clear_pivot_column<<<(n + 255) / 256, 256>>>(aug, n, k);
  }
}
