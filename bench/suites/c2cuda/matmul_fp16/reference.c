// C reference for matmul_fp16: the half inputs (gcc's _Float16, the bits of
// CUDA's __half) are widened to float, multiplied in i-k-j order with float
// sums, and each output rounded to half once.
#include <stdlib.h>

void matmul_fp16(const _Float16 *A, const _Float16 *B, _Float16 *C, int M, int N, int K) {
  float *b = (float *)malloc(sizeof(float) * ((size_t)K * N + 1));
  float *c = (float *)malloc(sizeof(float) * ((size_t)N + 1));
  for (long long i = 0; i < (long long)K * N; i++) b[i] = (float)B[i];
  for (int m = 0; m < M; m++) {
    for (int n = 0; n < N; n++) c[n] = 0.0f;
    for (int k = 0; k < K; k++) {
      float a = (float)A[(long long)m * K + k];
      const float *bk = b + (long long)k * N;
      for (int n = 0; n < N; n++) c[n] += a * bk[n];
    }
    for (int n = 0; n < N; n++) C[(long long)m * N + n] = (_Float16)c[n];
  }
  free(b);
  free(c);
}
