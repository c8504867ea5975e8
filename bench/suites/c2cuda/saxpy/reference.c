// C reference for saxpy: y[i] = alpha * x[i] + y[i].
void saxpy(const float *x, float *y, float alpha, int n) {
  for (int i = 0; i < n; i++) y[i] = alpha * x[i] + y[i];
}
