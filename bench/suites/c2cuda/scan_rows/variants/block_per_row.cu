// strategy: shared-memory tiling - one 512-thread block per row, chunks of 512 scanned with a Hillis-Steele scan in shared memory, a running carry between chunks
#include <cuda_runtime.h>

#define T 512

__global__ void scan_block(const float *a, float *out, int rows, int cols) {
  __shared__ float buf[2][T];
  __shared__ float carry;
  const float *in = a + (long long)blockIdx.x * cols;
  float *o = out + (long long)blockIdx.x * cols;
  int t = threadIdx.x;
  if (t == 0) carry = 0.0f;
  for (int j0 = 0; j0 < cols; j0 += T) {
    int src = 0;
    buf[0][t] = (j0 + t < cols) ? in[j0 + t] : 0.0f;
    __syncthreads();
    for (int off = 1; off < T; off <<= 1) {
      float v = buf[src][t];
      if (t >= off) v += buf[src][t - off];
      buf[1 - src][t] = v;
      src = 1 - src;
      __syncthreads();
    }
    float c = carry;
    if (j0 + t < cols) o[j0 + t] = buf[src][t] + c;
    __syncthreads();  // everyone has read carry
    if (t == T - 1) carry = c + buf[src][T - 1];
    __syncthreads();
  }
}

extern "C" void scan_rows(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  scan_block<<<rows, T>>>(a, out, rows, cols);
}
