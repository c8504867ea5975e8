// C reference for row_sum: out[r] = sum of row r of a row-major rows x cols
// matrix, accumulated in double.
void row_sum(const float *a, float *out, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    const float *row = a + (long long)r * cols;
    double acc = 0.0;
    for (int j = 0; j < cols; j++) acc += row[j];
    out[r] = (float)acc;
  }
}
