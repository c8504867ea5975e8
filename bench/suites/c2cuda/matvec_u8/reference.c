// C reference for matvec_u8: exact unsigned sums (at most 16384 * 255 * 255 < 2^32).
void matvec_u8(const unsigned char *a, const unsigned char *x, unsigned int *y, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    unsigned int acc = 0;
    const unsigned char *row = a + (long long)r * cols;
    for (int j = 0; j < cols; j++) acc += (unsigned int)row[j] * x[j];
    y[r] = acc;
  }
}
