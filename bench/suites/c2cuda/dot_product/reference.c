// C reference for dot_product: out[0] = sum of a[i]*b[i], accumulated in double.
void dot_product(const float *a, const float *b, float *out, int n) {
  double acc = 0.0;
  for (int i = 0; i < n; i++) acc += (double)a[i] * (double)b[i];
  out[0] = (float)acc;
}
