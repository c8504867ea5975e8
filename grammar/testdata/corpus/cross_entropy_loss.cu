#include <cuda_runtime.h>
#include <cfloat>

// Softmax cross-entropy forward and its gradient, one block per sample.
__global__ void softmax_xent(const float *__restrict__ logits, const int *__restrict__ labels, float *__restrict__ loss,
                             float *__restrict__ dlogits, int classes) {
  extern __shared__ float red[];
  const float *z = logits + (size_t)blockIdx.x * classes;
  float *dz = dlogits + (size_t)blockIdx.x * classes;
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < classes; c += blockDim.x) m = fmaxf(m, z[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.f;
  for (int c = threadIdx.x; c < classes; c += blockDim.x) sum += expf(z[c] - m);
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  float logsum = logf(red[0]) + m;
  int y = labels[blockIdx.x];
  for (int c = threadIdx.x; c < classes; c += blockDim.x) dz[c] = expf(z[c] - logsum) - (c == y ? 1.f : 0.f);
  if (threadIdx.x == 0) loss[blockIdx.x] = logsum - z[y];
}

void xent(const float *logits, const int *labels, float *loss, float *dlogits, int batch, int classes) {
  int t = 256;
  softmax_xent<<<batch, t, t * sizeof(float)>>>(logits, labels, loss, dlogits, classes);
}
