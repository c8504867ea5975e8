#include <cuda_runtime.h>

// NCHW -> NHWC through a shared 32x32 tile over the (C, HW) plane of each image,
// so both the read and the write are coalesced.
__global__ void nchw_to_nhwc(const float *__restrict__ in, float *__restrict__ out, int C, int HW) {
  __shared__ float tile[32][33];
  const int n = blockIdx.z;
  const int hw0 = blockIdx.x * 32, c0 = blockIdx.y * 32;
  const float *src = in + (size_t)n * C * HW;
  float *dst = out + (size_t)n * C * HW;
  for (int i = threadIdx.y; i < 32; i += blockDim.y) {
    int c = c0 + i, hw = hw0 + threadIdx.x;
    if (c < C && hw < HW) tile[i][threadIdx.x] = src[(size_t)c * HW + hw];
  }
  __syncthreads();
  for (int i = threadIdx.y; i < 32; i += blockDim.y) {
    int hw = hw0 + i, c = c0 + threadIdx.x;
    if (c < C && hw < HW) dst[(size_t)hw * C + c] = tile[threadIdx.x][i];
  }
}

void to_nhwc(const float *in, float *out, int N, int C, int H, int W, cudaStream_t s) {
  dim3 block(32, 8);
  dim3 grid((H * W + 31) / 32, (C + 31) / 32, N);
  nchw_to_nhwc<<<grid, block, 0, s>>>(in, out, C, H * W);
}
