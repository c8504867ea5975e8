// C reference for permute_021.
void permute_021(const float *in, float *out, int B, int R, int C) {
  for (int b = 0; b < B; b++)
    for (int r = 0; r < R; r++)
      for (int c = 0; c < C; c++) out[((long long)b * C + c) * R + r] = in[((long long)b * R + r) * C + c];
}
