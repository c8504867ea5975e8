// C reference for vecmat: walks A row by row (cache friendly) and keeps one
// double accumulator per output column.
#include <stdlib.h>

void vecmat(const float *x, const float *A, float *y, int M, int N) {
    double *acc = (double *)calloc((size_t)(N > 0 ? N : 1), sizeof(double));
    if (!acc) return;
    for (int i = 0; i < M; i++) {
        double xi = x[i];
        const float *row = A + (size_t)i * N;
        for (int j = 0; j < N; j++) acc[j] += xi * row[j];
    }
    for (int j = 0; j < N; j++) y[j] = (float)acc[j];
    free(acc);
}
