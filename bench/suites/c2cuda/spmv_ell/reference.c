// C reference for spmv_ell, and the generator of its matrices.
static unsigned long long ell_next(unsigned long long *s) {
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// gen_spmv_ell gives every row a length uniform in [0, width] (so some rows
// are empty and some full) and random columns; the slots after a row's
// length are padding (col_idx -1, val 0).
void gen_spmv_ell(int *col_idx, float *val, float *x, float *y, int rows, int width, unsigned long long seed) {
  (void)x;
  (void)y;
  unsigned long long s = seed ^ 0x5EEDE11ULL;
  for (int r = 0; r < rows; r++) {
    int len = (int)(ell_next(&s) % (unsigned long long)(width + 1));
    for (int j = 0; j < width; j++) {
      long long k = (long long)j * rows + r;
      if (j < len) {
        col_idx[k] = (int)(ell_next(&s) % (unsigned long long)rows);
      } else {
        col_idx[k] = -1;
        val[k] = 0.0f;
      }
    }
  }
}

void spmv_ell(const int *col_idx, const float *val, const float *x, float *y, int rows, int width) {
  for (int r = 0; r < rows; r++) {
    double acc = 0.0;
    for (int j = 0; j < width; j++) {
      long long k = (long long)j * rows + r;
      if (col_idx[k] >= 0) acc += (double)val[k] * x[col_idx[k]];
    }
    y[r] = (float)acc;
  }
}
