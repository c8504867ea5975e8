// C reference for hamming_u32.
void hamming_u32(const unsigned int *a, const unsigned int *q, int *out, int n, int words) {
  for (int i = 0; i < n; i++) {
    int d = 0;
    for (int w = 0; w < words; w++) d += __builtin_popcount(a[(long long)i * words + w] ^ q[w]);
    out[i] = d;
  }
}
