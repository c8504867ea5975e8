// strategy: shared-memory tiling, 32x32 tiles
#define T 32
__global__ void gemm_tiled(const float *A, const float *B, float *C, float alpha, float beta,
                           int m, int n, int k) {
    __shared__ float As[T][T];
    __shared__ float Bs[T][T + 1];
    int j = blockIdx.x * T + threadIdx.x;
    int i = blockIdx.y * T + threadIdx.y;
    float acc = 0.0f;
    for (int p0 = 0; p0 < k; p0 += T) {
        As[threadIdx.y][threadIdx.x] = (i < m && p0 + threadIdx.x < k) ? A[(long)i * k + p0 + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (p0 + threadIdx.y < k && j < n) ? B[(long)(p0 + threadIdx.y) * n + j] : 0.0f;
        __syncthreads();
        for (int q = 0; q < T; q++) acc += As[threadIdx.y][q] * Bs[q][threadIdx.x];
        __syncthreads();
    }
    if (i < m && j < n) C[(long)i * n + j] = alpha * acc + beta * C[(long)i * n + j];
}

extern "C" void gemm(const float *A, const float *B, float *C, float alpha, float beta, int m, int n, int k) {
    dim3 block(T, T);
    dim3 grid((n + T - 1) / T, (m + T - 1) / T);
    gemm_tiled<<<grid, block>>>(A, B, C, alpha, beta, m, n, k);
}
