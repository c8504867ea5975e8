// strategy: naive, one thread per output element, 16x16 blocks
__global__ void gemm_naive(const float *A, const float *B, float *C, float alpha, float beta,
                           int m, int n, int k) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int p = 0; p < k; p++) acc += A[(long)i * k + p] * B[(long)p * n + j];
    C[(long)i * n + j] = alpha * acc + beta * C[(long)i * n + j];
}

extern "C" void gemm(const float *A, const float *B, float *C, float alpha, float beta, int m, int n, int k) {
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (m + 15) / 16);
    gemm_naive<<<grid, block>>>(A, B, C, alpha, beta, m, n, k);
}
