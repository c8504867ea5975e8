// strategy: shared-memory tiling - a TX x TY block stages each input channel's (TX+2) x (TY+2) tile with its halo and the block's 9 weights in shared memory, one output channel per blockIdx.z
// sweep: TX = 16, 32
// sweep: TY = 4, 8, 16
#include <cuda_runtime.h>

__global__ void conv_smem(const float *in, const float *w, float *out, int C, int K, int H, int W) {
  __shared__ float tile[TY + 2][TX + 2];
  __shared__ float ws[9];
  int tx = threadIdx.x, ty = threadIdx.y, k = blockIdx.z;
  int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY, x = x0 + tx, y = y0 + ty;
  float acc = 0.0f;
  for (int c = 0; c < C; c++) {
    const float *plane = in + (long long)c * H * W;
    for (int i = ty * TX + tx; i < (TX + 2) * (TY + 2); i += TX * TY) {
      int r = i / (TX + 2), q = i % (TX + 2), yy = y0 + r - 1, xx = x0 + q - 1;
      tile[r][q] = (yy >= 0 && yy < H && xx >= 0 && xx < W) ? plane[(long long)yy * W + xx] : 0.0f;
    }
    if (ty * TX + tx < 9) ws[ty * TX + tx] = w[(k * C + c) * 9 + ty * TX + tx];
    __syncthreads();
#pragma unroll
    for (int dy = 0; dy < 3; dy++)
#pragma unroll
      for (int dx = 0; dx < 3; dx++) acc += ws[dy * 3 + dx] * tile[ty + dy][tx + dx];
    __syncthreads();
  }
  if (x < W && y < H) out[((long long)k * H + y) * W + x] = acc;
}

extern "C" void conv2d_nchw(const float *in, const float *w, float *out, int C, int K, int H, int W) {
  if (K <= 0 || H <= 0 || W <= 0) return;
  dim3 block(TX, TY), grid((W + TX - 1) / TX, (H + TY - 1) / TY, K);
  conv_smem<<<grid, block>>>(in, w, out, C, K, H, W);
}
