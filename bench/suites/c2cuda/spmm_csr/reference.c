// C reference for spmm_csr, and the generator of its matrices.
#include <stdlib.h>

static unsigned long long spmm_next(unsigned long long *s) {
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// gen_spmm_csr sets row_ptr[r] = nnz * (r/rows)^2: row lengths grow linearly
// from 0 (the first rows are empty) to twice the mean; columns are uniform.
void gen_spmm_csr(int *row_ptr, int *col_idx, float *val, float *B, float *C, int rows, int ncols, int nnz,
                  unsigned long long seed) {
  (void)val;
  (void)B;
  (void)C;
  (void)ncols;
  for (int r = 0; r <= rows; r++) {
    double f = (double)r / rows;
    long long p = (long long)(f * f * nnz);
    row_ptr[r] = (int)(r == rows ? nnz : (p > nnz ? nnz : p));
  }
  unsigned long long s = seed ^ 0x5133ULL;
  for (int i = 0; i < nnz; i++) col_idx[i] = (int)(spmm_next(&s) % (unsigned long long)rows);
}

void spmm_csr(const int *row_ptr, const int *col_idx, const float *val, const float *B, float *C, int rows, int ncols,
              int nnz) {
  (void)nnz;
  double *acc = (double *)malloc(sizeof(double) * (size_t)(ncols > 0 ? ncols : 1));
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < ncols; c++) acc[c] = 0.0;
    for (int i = row_ptr[r]; i < row_ptr[r + 1]; i++) {
      const float *b = B + (long long)col_idx[i] * ncols;
      for (int c = 0; c < ncols; c++) acc[c] += (double)val[i] * b[c];
    }
    for (int c = 0; c < ncols; c++) C[(long long)r * ncols + c] = (float)acc[c];
  }
  free(acc);
}
