#include <cuda_runtime.h>

// Gather a strided view into a contiguous buffer: out[i] = in[offset + i * stride].
// Uncoalesced when stride > 1; kept as the reference the vectorized path is
// compared with.
__global__ void strided_gather(const double *in, double *out, long offset, long stride, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[offset + i * stride];
}

__global__ void strided_scatter(const double *in, double *out, long offset, long stride, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) out[offset + i * stride] = in[i];
}

void gather(const double *in, double *out, long offset, long stride, long n, cudaStream_t s) {
  const int tpb = 128;
  strided_gather<<<(unsigned)((n + tpb - 1) / tpb), tpb, 0, s>>>(in, out, offset, stride, n);
}
