// C reference for clamp_scale: y[i] = scale * clamp(x[i], lo, hi).
void clamp_scale(const float *x, float *y, float lo, float hi, float scale, int n) {
  for (int i = 0; i < n; i++) {
    float v = x[i];
    if (v < lo)
      v = lo;
    else if (v > hi)
      v = hi;
    y[i] = scale * v;
  }
}
