// C reference for scan_fp64: serial inclusive prefix sum.
void scan_fp64(const double *x, double *out, int n) {
  double acc = 0.0;
  for (int i = 0; i < n; i++) {
    acc += x[i];
    out[i] = acc;
  }
}
