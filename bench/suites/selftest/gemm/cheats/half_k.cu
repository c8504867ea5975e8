// expect: partially_correct — on large matrices it sums only half of k, so it passes the small configurations and fails the large one
__global__ void gemm_half(const float *A, const float *B, float *C, float alpha, float beta,
                          int m, int n, int k, int kk) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int p = 0; p < kk; p++) acc += A[(long)i * k + p] * B[(long)p * n + j];
    C[(long)i * n + j] = alpha * acc + beta * C[(long)i * n + j];
}

extern "C" void gemm(const float *A, const float *B, float *C, float alpha, float beta, int m, int n, int k) {
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (m + 15) / 16);
    int kk = (m * n > 65536) ? k / 2 : k;
    gemm_half<<<grid, block>>>(A, B, C, alpha, beta, m, n, k, kk);
}
