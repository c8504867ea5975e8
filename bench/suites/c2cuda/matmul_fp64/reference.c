// C reference for matmul_fp64: C = A * B, row-major, i-k-j order.
void matmul_fp64(const double *A, const double *B, double *C, int M, int N, int K) {
  for (long long i = 0; i < (long long)M * N; i++) C[i] = 0.0;
  for (int m = 0; m < M; m++)
    for (int k = 0; k < K; k++) {
      double a = A[(long long)m * K + k];
      const double *b = B + (long long)k * N;
      double *c = C + (long long)m * N;
      for (int n = 0; n < N; n++) c[n] += a * b[n];
    }
}
