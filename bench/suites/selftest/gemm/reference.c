void gemm(const float *A, const float *B, float *C, float alpha, float beta, int m, int n, int k) {
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++)
            C[(long)i * n + j] *= beta;
        for (int p = 0; p < k; p++) {
            float a = alpha * A[(long)i * k + p];
            for (int j = 0; j < n; j++)
                C[(long)i * n + j] += a * B[(long)p * n + j];
        }
    }
}
