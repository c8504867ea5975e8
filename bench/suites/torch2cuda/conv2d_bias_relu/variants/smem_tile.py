import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
__device__ __forceinline__ float act(float v) { return fmaxf(v, 0.f); }

#define T 16
// A 16x16 output tile of one (batch, output channel) per block: for each
// input channel the 18x18 input patch (with halo, zero padding) and the
// 3x3 filter are staged in shared memory; bias and ReLU fused.
__global__ void conv2d_bias_relu_tile_kernel(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ bias, float *__restrict__ y,
                                int cin, int cout, int h, int wd, int oh, int ow, int pad) {
    __shared__ float patch[T + 2][T + 3];
    __shared__ float filt[9];
    int b = blockIdx.z / cout, co = blockIdx.z % cout;
    int ox0 = blockIdx.x * T, oy0 = blockIdx.y * T;
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
    float v = (bias ? bias[co] : 0.f);
    for (int ci = 0; ci < cin; ci++) {
        const float *xp = x + ((long)b * cin + ci) * h * wd;
        for (int p = tid; p < (T + 2) * (T + 2); p += T * T) {
            int py = p / (T + 2), px = p % (T + 2);
            int iy = oy0 + py - pad, ix = ox0 + px - pad;
            patch[py][px] = (iy >= 0 && iy < h && ix >= 0 && ix < wd) ? xp[(long)iy * wd + ix] : 0.f;
        }
        if (tid < 9) filt[tid] = w[((long)co * cin + ci) * 9 + tid];
        __syncthreads();
#pragma unroll
        for (int ky = 0; ky < 3; ky++)
#pragma unroll
            for (int kx = 0; kx < 3; kx++) v += patch[ty + ky][tx + kx] * filt[ky * 3 + kx];
        __syncthreads();
    }
    int ox = ox0 + tx, oy = oy0 + ty;
    if (ox < ow && oy < oh) y[(((long)b * cout + co) * oh + oy) * ow + ox] = act(v);
}

void conv2d_bias_relu_launch(const float *x, const float *w, const float *bias, float *y, int batch, int cin, int cout, int h, int w_, int oh, int ow, int pad) {
    if ((long)batch * cout * oh * ow == 0) return;
    dim3 grid((ow + T - 1) / T, (oh + T - 1) / T, batch * cout);
    conv2d_bias_relu_tile_kernel<<<grid, dim3(T, T)>>>(x, w, bias, y, cin, cout, h, w_, oh, ow, pad);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void conv2d_bias_relu_launch(const float *x, const float *w, const float *bias, float *y, int batch, int cin, int cout, int h, int w_, int oh, int ow, int pad);

torch::Tensor conv2d_bias_relu_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor bias, int64_t pad) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 4, "conv2d_bias_relu_cuda: x: want a (batch, cin, h, w) float32 CUDA tensor");
    TORCH_CHECK(w.dim() == 4 && w.size(1) == x.size(1) && w.size(2) == 3 && w.size(3) == 3, "conv2d_bias_relu_cuda: weight: want (cout, cin, 3, 3) matching x");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    int oh = (int)(xc.size(2) + 2 * pad - 2), ow = (int)(xc.size(3) + 2 * pad - 2);
    auto y = torch::empty({xc.size(0), wc.size(0), oh, ow}, xc.options());
    auto bc = bias.contiguous();
    const float *bp = bc.data_ptr<float>();
    conv2d_bias_relu_launch(xc.data_ptr<float>(), wc.data_ptr<float>(), bp, y.data_ptr<float>(), (int)xc.size(0), (int)xc.size(1), (int)wc.size(0),
               (int)xc.size(2), (int)xc.size(3), oh, ow, (int)pad);
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="conv2d_bias_relu_smem_tile",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['conv2d_bias_relu_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, cin, cout, pad):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=pad, bias=True)

    def forward(self, x):
        return ext.conv2d_bias_relu_cuda(x, self.conv.weight, self.conv.bias, self.conv.padding[0])
