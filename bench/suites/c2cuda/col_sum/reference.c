// C reference for col_sum: out[c] = sum of column c of a row-major rows x cols
// matrix, accumulated in double. Rows are walked in order so the reference
// reads memory sequentially.
#include <stdlib.h>

void col_sum(const float *a, float *out, int rows, int cols) {
  double *acc = calloc((size_t)cols, sizeof(double));
  if (!acc) return;
  for (int r = 0; r < rows; r++) {
    const float *row = a + (long long)r * cols;
    for (int c = 0; c < cols; c++) acc[c] += row[c];
  }
  for (int c = 0; c < cols; c++) out[c] = (float)acc[c];
  free(acc);
}
