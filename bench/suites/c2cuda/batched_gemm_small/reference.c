// C reference for batched_gemm_small: one small matrix product per batch
// entry in i-k-j order (the inner loop streams a row of B), each output row
// accumulated in double.
#include <stddef.h>

void batched_gemm_small(const float *A, const float *B, float *C, int batch, int n) {
    size_t nn = (size_t)n * n;
    double acc[32];
    for (int b = 0; b < batch; b++) {
        const float *a = A + b * nn, *bm = B + b * nn;
        float *c = C + b * nn;
        for (int i = 0; i < n; i++) {
            for (int j0 = 0; j0 < n; j0 += 32) {
                int j1 = j0 + 32 < n ? j0 + 32 : n;
                for (int j = j0; j < j1; j++) acc[j - j0] = 0.0;
                for (int k = 0; k < n; k++) {
                    double aik = a[i * n + k];
                    const float *brow = bm + (size_t)k * n;
                    for (int j = j0; j < j1; j++) acc[j - j0] += aik * brow[j];
                }
                for (int j = j0; j < j1; j++) c[i * n + j] = (float)acc[j - j0];
            }
        }
    }
}
