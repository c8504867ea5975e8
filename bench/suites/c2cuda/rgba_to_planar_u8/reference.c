// C reference for rgba_to_planar_u8.
void rgba_to_planar_u8(const unsigned char *in, unsigned char *out, int n) {
  for (int c = 0; c < 4; c++)
    for (int i = 0; i < n; i++) out[(long long)c * n + i] = in[4LL * i + c];
}
