void fills(const float *u, const double *g, const int *r, const float *z, const unsigned short *h, const unsigned char *b, float *out, int n) {
    for (int i = 0; i < n; i++) out[i] = u[i];
}
