import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
__device__ __forceinline__ float act(float v) { return fmaxf(v, 0.f); }

#define CO 8
// One output position per thread for CO = 8 output channels at once: each
// input value is loaded once and used 8 times from a register; the block's
// filters for those channels sit in shared memory; bias and ReLU fused.
__global__ void conv2d_bias_relu_cob_kernel(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ bias, float *__restrict__ y,
                               int cin, int cout, int h, int wd, int oh, int ow, int pad) {
    extern __shared__ float filt[];  // [CO][cin][9]
    int groups = (cout + CO - 1) / CO;
    int b = blockIdx.y / groups, co0 = (blockIdx.y % groups) * CO;
    for (int i = threadIdx.x; i < CO * cin * 9; i += blockDim.x) {
        int c = i / (cin * 9);
        filt[i] = co0 + c < cout ? w[(long)co0 * cin * 9 + i] : 0.f;
    }
    __syncthreads();
    long p = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (p >= (long)oh * ow) return;
    int ox = p % ow, oy = p / ow;
    float acc[CO];
#pragma unroll
    for (int c = 0; c < CO; c++) acc[c] = (bias && co0 + c < cout) ? bias[co0 + c] : 0.f;
    for (int ci = 0; ci < cin; ci++) {
        const float *xp = x + ((long)b * cin + ci) * h * wd;
        for (int ky = 0; ky < 3; ky++) {
            int iy = oy + ky - pad;
            if (iy < 0 || iy >= h) continue;
            for (int kx = 0; kx < 3; kx++) {
                int ix = ox + kx - pad;
                if (ix < 0 || ix >= wd) continue;
                float xv = xp[(long)iy * wd + ix];
#pragma unroll
                for (int c = 0; c < CO; c++) acc[c] += xv * filt[(c * cin + ci) * 9 + ky * 3 + kx];
            }
        }
    }
#pragma unroll
    for (int c = 0; c < CO; c++)
        if (co0 + c < cout) y[(((long)b * cout + co0 + c) * oh + oy) * ow + ox] = act(acc[c]);
}

void conv2d_bias_relu_launch(const float *x, const float *w, const float *bias, float *y, int batch, int cin, int cout, int h, int w_, int oh, int ow, int pad) {
    long plane = (long)oh * ow;
    if (plane == 0 || batch == 0 || cout == 0) return;
    int groups = (cout + CO - 1) / CO;
    dim3 grid((unsigned)((plane + 127) / 128), batch * groups);
    size_t smem = (size_t)CO * cin * 9 * sizeof(float);
    conv2d_bias_relu_cob_kernel<<<grid, 128, smem>>>(x, w, bias, y, cin, cout, h, w_, oh, ow, pad);
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
    name="conv2d_bias_relu_cout_blocked",
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
