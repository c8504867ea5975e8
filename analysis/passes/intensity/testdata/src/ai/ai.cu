#define TILE 32

// 1 FLOP per 12 bytes.
__global__ void vecadd(const float* a, const float* b, float* c, int n) { // want kernel=vecadd ai:"0.0833"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Naive matmul: 2 FLOPs per 8 bytes in the loop (16·2 / (16·8 + 4)).
__global__ void matmul_naive(const float* A, const float* B, float* C, int n) { // want kernel=matmul_naive ai:"0.242"
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; k++) sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}

// Tiled: per tile, 2 global loads and 32 multiply-adds from shared memory:
// 16·32·2 / (16·2·4 + 4) = 7.75.
__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) { // want kernel=matmul_tiled ai:"7.75"
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; t++) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

__global__ void intonly(int* a) { // want kernel=intonly ai:"0"
  a[threadIdx.x] = a[threadIdx.x] * 2 + 1;
}
