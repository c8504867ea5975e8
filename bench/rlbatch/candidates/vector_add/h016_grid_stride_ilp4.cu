// strategy: register blocking / ILP - grid-stride loop sized to the SM count, 4 independent coalesced elements in flight per thread
#include <cuda_runtime.h>

__global__ void vector_add_ilp4(const float *__restrict__ a, const float *__restrict__ b,
                                float *__restrict__ c, int n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  // Main loop: four loads of each input issued before any store.
  for (; i + 3 * stride < n; i += 4 * stride) {
    float x0 = a[i], x1 = a[i + stride], x2 = a[i + 2 * stride], x3 = a[i + 3 * stride];
    float y0 = b[i], y1 = b[i + stride], y2 = b[i + 2 * stride], y3 = b[i + 3 * stride];
    c[i] = x0 + y0;
    c[i + stride] = x1 + y1;
    c[i + 2 * stride] = x2 + y2;
    c[i + 3 * stride] = x3 + y3;
  }
  for (; i < n; i += stride) c[i] = a[i] + b[i];
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
  if (n <= 0) return;
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  const int threads = 512;
  long long need = ((long long)n + threads - 1) / threads;
  long long blocks = (long long)sms * 4;
  if (blocks > need) blocks = need;
  vector_add_ilp4<<<(int)blocks, threads>>>(a, b, c, n);
}

// rlbatch: copy 16
__device__ int rlbatch_tag_16 = 16;
