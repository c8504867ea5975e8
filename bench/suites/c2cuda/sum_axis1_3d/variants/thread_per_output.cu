// strategy: naive (coalesced) - one thread per output (a, c) walks the B axis; neighbouring threads read neighbouring c, so every step is a coalesced row read
#include <cuda_runtime.h>

__global__ void axis1_thread(const float *x, float *out, int A, int B, int C) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)A * C) return;
  int a = (int)(t / C), c = (int)(t % C);
  const float *p = x + (long long)a * B * C + c;
  float acc = 0.0f;
  for (int b = 0; b < B; b++) acc += p[(long long)b * C];
  out[t] = acc;
}

extern "C" void sum_axis1_3d(const float *x, float *out, int A, int B, int C) {
  long long total = (long long)A * C;
  if (total <= 0) return;
  axis1_thread<<<(unsigned)((total + 255) / 256), 256>>>(x, out, A, B, C);
}
