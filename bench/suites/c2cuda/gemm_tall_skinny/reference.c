// C reference for gemm_tall_skinny: C = A * B, row-major, accumulated in double.
#include <stdlib.h>

void gemm_tall_skinny(const float *A, const float *B, float *C, int M, int N, int K) {
  double *acc = (double *)malloc(sizeof(double) * (size_t)(N > 0 ? N : 1));
  for (int m = 0; m < M; m++) {
    for (int n = 0; n < N; n++) acc[n] = 0.0;
    for (int k = 0; k < K; k++) {
      double a = A[(long long)m * K + k];
      for (int n = 0; n < N; n++) acc[n] += a * B[(long long)k * N + n];
    }
    for (int n = 0; n < N; n++) C[(long long)m * N + n] = (float)acc[n];
  }
  free(acc);
}
