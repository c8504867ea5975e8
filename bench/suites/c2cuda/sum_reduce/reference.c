// C reference for sum_reduce: out[0] = sum of x[0..n), accumulated in double so
// that the reference itself carries no float rounding of the summation order.
void sum_reduce(const float *x, float *out, int n) {
  double acc = 0.0;
  for (int i = 0; i < n; i++) acc += x[i];
  out[0] = (float)acc;
}
