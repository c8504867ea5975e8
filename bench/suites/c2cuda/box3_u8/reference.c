// C reference for box3_u8: integer 3x3 mean with clamped edges.
static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

void box3_u8(const unsigned char *in, unsigned char *out, int H, int W) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int s = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) s += in[(long long)clampi(y + dy, 0, H - 1) * W + clampi(x + dx, 0, W - 1)];
      out[(long long)y * W + x] = (unsigned char)((s + 4) / 9);
    }
}
