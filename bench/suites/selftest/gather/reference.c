void gather(const float *src, const int *idx, float *dst, int n) {
    for (int i = 0; i < n; i++)
        dst[i] = src[idx[i]];
}

/* Fills idx with a permutation of 0..n-1 (Fisher-Yates with a 64-bit LCG),
   deterministic in seed. */
void gen_gather(const float *src, int *idx, float *dst, int n, unsigned long long seed) {
    (void)src;
    (void)dst;
    unsigned long long s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    for (int i = 0; i < n; i++)
        idx[i] = i;
    for (int i = n - 1; i > 0; i--) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        int j = (int)((s >> 33) % (unsigned long long)(i + 1));
        int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
}
