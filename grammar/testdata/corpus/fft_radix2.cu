#include <cuComplex.h>
#include <cuda_runtime.h>
#include <math_constants.h>

// Iterative radix-2 Cooley-Tukey FFT: bit-reversal permutation, then log2(n)
// butterfly stages, each a kernel launch.
__global__ void bit_reverse(const cuFloatComplex *in, cuFloatComplex *out, int n, int logn) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (unsigned)n) out[__brev(i) >> (32 - logn)] = in[i];
}

__global__ void butterfly(cuFloatComplex *data, int n, int half_size, bool inverse) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n / 2) return;
  int group = t / half_size;
  int pos = t % half_size;
  int i = group * 2 * half_size + pos;
  int j = i + half_size;
  float angle = (inverse ? 1.f : -1.f) * CUDART_PI_F * pos / half_size;
  float s, c;
  __sincosf(angle, &s, &c);
  cuFloatComplex w = make_cuFloatComplex(c, s);
  cuFloatComplex u = data[i];
  cuFloatComplex v = cuCmulf(w, data[j]);
  data[i] = cuCaddf(u, v);
  data[j] = cuCsubf(u, v);
}

void fft(const cuFloatComplex *in, cuFloatComplex *out, int logn, bool inverse) {
  int n = 1 << logn;
  int threads = 256;
  bit_reverse<<<(n + threads - 1) / threads, threads>>>(in, out, n, logn);
  for (int half = 1; half < n; half <<= 1) {
    butterfly<<<(n / 2 + threads - 1) / threads, threads>>>(out, n, half, inverse);
  }
}
