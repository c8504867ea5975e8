// C reference for matmul_fp32: i-k-j loop order so the inner loop streams
// rows of B and C; each output row accumulates in double.
#include <stdlib.h>

void matmul_fp32(const float *A, const float *B, float *C, int M, int N, int K) {
    double *acc = (double *)malloc(sizeof(double) * (size_t)(N > 0 ? N : 1));
    if (!acc) return;
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) acc[j] = 0.0;
        for (int k = 0; k < K; k++) {
            double a = A[(size_t)i * K + k];
            const float *brow = B + (size_t)k * N;
            for (int j = 0; j < N; j++) acc[j] += a * brow[j];
        }
        for (int j = 0; j < N; j++) C[(size_t)i * N + j] = (float)acc[j];
    }
    free(acc);
}
