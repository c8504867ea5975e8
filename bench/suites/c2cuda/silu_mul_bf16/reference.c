// C reference for silu_mul_bf16: bfloat16 arrays are their bits (the top
// half of a float); the product is computed in float and rounded to nearest
// even, as __float2bfloat16_rn does.
#include <math.h>
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

void silu_mul_bf16(const unsigned short *g, const unsigned short *u, unsigned short *out, int n) {
  for (int i = 0; i < n; i++) {
    float gv = bf2f(g[i]);
    out[i] = f2bf(gv / (1.0f + expf(-gv)) * bf2f(u[i]));
  }
}
