#include <cuda_runtime.h>
#include <cfloat>

// 2D max pooling over NCHW with argmax indices for the backward pass.
__global__ void maxpool2d_fwd(const float *__restrict__ in, float *__restrict__ out, int *__restrict__ argmax, int N,
                              int C, int H, int W, int OH, int OW, int k, int stride, int pad) {
  long idx = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long total = (long)N * C * OH * OW;
  if (idx >= total) return;
  int ow = idx % OW;
  int oh = (idx / OW) % OH;
  int c = (idx / ((long)OW * OH)) % C;
  int n = idx / ((long)OW * OH * C);
  const float *plane = in + ((long)n * C + c) * H * W;
  float best = -FLT_MAX;
  int best_i = -1;
  for (int i = 0; i < k; ++i) {
    int ih = oh * stride - pad + i;
    if (ih < 0 || ih >= H) continue;
    for (int j = 0; j < k; ++j) {
      int iw = ow * stride - pad + j;
      if (iw < 0 || iw >= W) continue;
      float v = plane[ih * W + iw];
      if (v > best) {
        best = v;
        best_i = ih * W + iw;
      }
    }
  }
  out[idx] = best;
  argmax[idx] = best_i;
}

__global__ void maxpool2d_bwd(const float *__restrict__ grad_out, const int *__restrict__ argmax,
                              float *__restrict__ grad_in, int NC, int HW, int OHW) {
  long idx = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (idx >= (long)NC * OHW) return;
  int plane = idx / OHW;
  int a = argmax[idx];
  if (a >= 0) atomicAdd(&grad_in[(long)plane * HW + a], grad_out[idx]);
}
