// C reference for gemm_bias_relu: i-k-j matrix product with a double
// accumulator row, then bias and relu applied once per output.
#include <stdlib.h>

void gemm_bias_relu(const float *A, const float *B, const float *bias, float *C, int M, int N, int K) {
    double *acc = (double *)malloc(sizeof(double) * (size_t)(N > 0 ? N : 1));
    if (!acc) return;
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) acc[j] = bias[j];
        for (int k = 0; k < K; k++) {
            double a = A[(size_t)i * K + k];
            const float *brow = B + (size_t)k * N;
            for (int j = 0; j < N; j++) acc[j] += a * brow[j];
        }
        for (int j = 0; j < N; j++) C[(size_t)i * N + j] = acc[j] > 0.0 ? (float)acc[j] : 0.0f;
    }
    free(acc);
}
