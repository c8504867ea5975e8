// C reference for argmax_rows: first index of the row maximum.
void argmax_rows(const float *a, int *out, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    const float *row = a + (long long)r * cols;
    int best = 0;
    for (int j = 1; j < cols; j++)
      if (row[j] > row[best]) best = j;
    out[r] = best;
  }
}
