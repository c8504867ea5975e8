// strategy: global-memory sorting network - rows padded to a power of two in a scratch array, then one kernel launch per bitonic (k, j) step over every row at once, one compare-swap per thread
#include <cuda_runtime.h>

__global__ void pad_rows(const unsigned int *in, unsigned int *buf, int rows, int cols, int p) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (long long)rows * p) return;
  int r = (int)(i / p), c = (int)(i % p);
  buf[i] = c < cols ? in[(long long)r * cols + c] : 0xFFFFFFFFu;
}

__global__ void bitonic_step(unsigned int *buf, int rows, int p, int k, int j) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;  // one per pair
  long long half = (long long)rows * (p / 2);
  if (t >= half) return;
  int r = (int)(t / (p / 2)), q = (int)(t % (p / 2));
  int i = (q / j) * 2 * j + (q % j);  // lower index of the pair, ixj = i + j
  unsigned int *s = buf + (long long)r * p;
  unsigned int a = s[i], b = s[i + j];
  bool asc = (i & k) == 0;
  if ((a > b) == asc) {
    s[i] = b;
    s[i + j] = a;
  }
}

__global__ void unpad_rows(const unsigned int *buf, unsigned int *out, int rows, int cols, int p) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (long long)rows * cols) return;
  int r = (int)(i / cols), c = (int)(i % cols);
  out[i] = buf[(long long)r * p + c];
}

extern "C" void sort_rows(const unsigned int *in, unsigned int *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  int p = 1;
  while (p < cols) p <<= 1;
  unsigned int *buf = nullptr;
  if (cudaMalloc(&buf, sizeof(unsigned int) * (size_t)rows * p) != cudaSuccess) return;
  long long n = (long long)rows * p, pairs = n / 2;
  pad_rows<<<(unsigned)((n + 255) / 256), 256>>>(in, buf, rows, cols, p);
  for (int k = 2; k <= p; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) bitonic_step<<<(unsigned)((pairs + 255) / 256), 256>>>(buf, rows, p, k, j);
  long long m = (long long)rows * cols;
  unpad_rows<<<(unsigned)((m + 255) / 256), 256>>>(buf, out, rows, cols, p);
  cudaFree(buf);
}
