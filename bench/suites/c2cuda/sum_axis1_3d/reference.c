// C reference for sum_axis1_3d: sums over the middle axis, in double.
#include <stdlib.h>

void sum_axis1_3d(const float *x, float *out, int A, int B, int C) {
  double *acc = (double *)malloc(sizeof(double) * (size_t)(C > 0 ? C : 1));
  for (int a = 0; a < A; a++) {
    for (int c = 0; c < C; c++) acc[c] = 0.0;
    for (int b = 0; b < B; b++) {
      const float *row = x + ((long long)a * B + b) * C;
      for (int c = 0; c < C; c++) acc[c] += row[c];
    }
    for (int c = 0; c < C; c++) out[(long long)a * C + c] = (float)acc[c];
  }
  free(acc);
}
