// C reference for conv2d_nchw: direct 3x3 convolution, zero padding, sums in double.
void conv2d_nchw(const float *in, const float *w, float *out, int C, int K, int H, int W) {
  for (int k = 0; k < K; k++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        double acc = 0.0;
        for (int c = 0; c < C; c++)
          for (int dy = 0; dy < 3; dy++) {
            int yy = y + dy - 1;
            if (yy < 0 || yy >= H) continue;
            for (int dx = 0; dx < 3; dx++) {
              int xx = x + dx - 1;
              if (xx < 0 || xx >= W) continue;
              acc += (double)w[((k * C + c) * 3 + dy) * 3 + dx] * in[((long long)c * H + yy) * W + xx];
            }
          }
        out[((long long)k * H + y) * W + x] = (float)acc;
      }
}
