// C reference for scan_rows: inclusive prefix sums of each row, in double.
void scan_rows(const float *a, float *out, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    double acc = 0.0;
    for (int j = 0; j < cols; j++) {
      acc += a[(long long)r * cols + j];
      out[(long long)r * cols + j] = (float)acc;
    }
  }
}
