// C reference for exclusive_scan_int: y[0] = 0, y[i] = x[0] + ... + x[i-1].
void exclusive_scan_int(const int *x, int *y, int n) {
  int acc = 0;
  for (int i = 0; i < n; i++) {
    y[i] = acc;
    acc += x[i];
  }
}
