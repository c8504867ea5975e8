// C reference for outer_product: one float product per element.
#include <stddef.h>

void outer_product(const float *u, const float *v, float *A, int M, int N) {
    for (int i = 0; i < M; i++) {
        float ui = u[i];
        float *row = A + (size_t)i * N;
        for (int j = 0; j < N; j++) row[j] = ui * v[j];
    }
}
