// C reference for halfmix. float16 arrays are gcc's _Float16 (IEEE binary16,
// the bits of CUDA's __half); bfloat16 arrays are their bits, the top half
// of a float, rounded to nearest even as __float2bfloat16_rn does.
#include <string.h>

static float bf2f(unsigned short v) {
  unsigned int x = (unsigned int)v << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static unsigned short f2bf(float f) {
  unsigned int x;
  memcpy(&x, &f, 4);
  return (unsigned short)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

void halfmix(const _Float16 *x, const unsigned short *y, const double *w, _Float16 *h, unsigned short *b, double *d,
             float alpha, int n) {
  for (int i = 0; i < n; i++) {
    float xf = (float)x[i], yf = bf2f(y[i]);
    h[i] = (_Float16)(alpha * xf + yf);
    b[i] = f2bf(xf * yf);
    d[i] = w[i] * (double)alpha + (double)xf;
  }
}
