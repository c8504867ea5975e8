// C reference for stencil_1d_7pt: a 7-point weighted stencil; indices outside
// [0, n) are clamped to the nearest edge element.
static int clampi(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

void stencil_1d_7pt(const float *x, const float *w, float *y, int n) {
  for (int i = 0; i < n; i++) {
    float acc = 0.0f;
    for (int k = 0; k < 7; k++) acc += w[k] * x[clampi(i + k - 3, n)];
    y[i] = acc;
  }
}
