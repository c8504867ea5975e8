// C reference for max_reduce: out[0] = max of x[0..n), n >= 1.
void max_reduce(const float *x, float *out, int n) {
  if (n <= 0) return;
  float m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  out[0] = m;
}
