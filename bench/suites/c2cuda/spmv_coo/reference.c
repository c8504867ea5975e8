// C reference for spmv_coo, and the generator of its matrices.
#include <math.h>
#include <stdlib.h>

static unsigned long long coo_next(unsigned long long *s) {
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static double coo_unit(unsigned long long *s) { return (double)((coo_next(s) >> 11) + 1) * (1.0 / 9007199254740993.0); }

// gen_spmv_coo draws nnz sorted uniforms u (cumulative exponential spacings)
// and puts entry i in row floor(u_i^2 * rows): row indices come out sorted,
// low rows dense (row 0 holds ~nnz/sqrt(rows) entries), high rows sparse or
// empty. Columns are uniform.
void gen_spmv_coo(int *row_idx, int *col_idx, float *val, float *x, float *y, int rows, int nnz,
                  unsigned long long seed) {
  (void)val;
  (void)x;
  (void)y;
  unsigned long long s = seed ^ 0xC00C00ULL;
  double total = 0.0;
  for (int i = 0; i < nnz; i++) {
    total += -log(coo_unit(&s));
    row_idx[i] = 0;
    col_idx[i] = 0;
  }
  total += -log(coo_unit(&s));
  unsigned long long s2 = seed ^ 0xC00C00ULL;  // the same spacings again, now normalised
  double acc = 0.0;
  for (int i = 0; i < nnz; i++) {
    acc += -log(coo_unit(&s2));
    double u = acc / total;
    long long r = (long long)(u * u * rows);
    row_idx[i] = (int)(r < rows ? r : rows - 1);
  }
  for (int i = 0; i < nnz; i++) col_idx[i] = (int)(coo_next(&s) % (unsigned long long)rows);
}

void spmv_coo(const int *row_idx, const int *col_idx, const float *val, const float *x, float *y, int rows, int nnz) {
  double *acc = (double *)calloc((size_t)rows, sizeof(double));
  for (int i = 0; i < nnz; i++) acc[row_idx[i]] += (double)val[i] * x[col_idx[i]];
  for (int r = 0; r < rows; r++) y[r] = (float)acc[r];
  free(acc);
}
