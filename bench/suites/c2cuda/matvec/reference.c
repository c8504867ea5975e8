// C reference for matvec: one dot product per row, accumulated in double.
#include <stddef.h>

void matvec(const float *A, const float *x, float *y, int M, int N) {
    for (int i = 0; i < M; i++) {
        const float *row = A + (size_t)i * N;
        double acc = 0.0;
        for (int j = 0; j < N; j++) acc += (double)row[j] * x[j];
        y[i] = (float)acc;
    }
}
