// C reference for gelu: the tanh approximation of GELU used by GPT-2 and BERT,
// y = 0.5 x (1 + tanh(u)) with u = sqrt(2/pi) (x + 0.044715 x^3), in single
// precision. It is evaluated as the equal x / (1 + exp(-2u)), which does not
// cancel for negative x and costs one expf instead of a (slow, in glibc) tanhf.
#include <math.h>

void gelu(const float *x, float *y, int n) {
  const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
  const float k1 = 0.044715f;
  for (int i = 0; i < n; i++) {
    float v = x[i];
    float u = k0 * (v + k1 * v * v * v);
    y[i] = v / (1.0f + expf(-2.0f * u));
  }
}
