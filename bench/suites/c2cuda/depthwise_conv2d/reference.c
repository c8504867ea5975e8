// C reference for depthwise_conv2d: 3x3 filter per channel, zero padding, sums in double.
void depthwise_conv2d(const float *in, const float *w, float *out, int C, int H, int W) {
  for (int c = 0; c < C; c++) {
    const float *p = in + (long long)c * H * W;
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        double acc = 0.0;
        for (int dy = 0; dy < 3; dy++) {
          int yy = y + dy - 1;
          if (yy < 0 || yy >= H) continue;
          for (int dx = 0; dx < 3; dx++) {
            int xx = x + dx - 1;
            if (xx >= 0 && xx < W) acc += (double)w[c * 9 + dy * 3 + dx] * p[(long long)yy * W + xx];
          }
        }
        out[((long long)c * H + y) * W + x] = (float)acc;
      }
  }
}
