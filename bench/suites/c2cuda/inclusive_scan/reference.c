// C reference for inclusive_scan: y[i] = x[0] + ... + x[i], running sum in double.
void inclusive_scan(const float *x, float *y, int n) {
  double acc = 0.0;
  for (int i = 0; i < n; i++) {
    acc += x[i];
    y[i] = (float)acc;
  }
}
