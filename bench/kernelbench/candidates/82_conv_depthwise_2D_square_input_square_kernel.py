import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// Depthwise convolution (groups == channels), stride 1, no padding, no
// bias: a 32x8 output tile of one (batch, channel) plane per block; the
// input patch with its halo and the k*k filter are staged in shared memory.
#define TX 32
#define TY 8
__global__ void kb82_depthwise_kernel(const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y,
                                      int channels, int h, int wd, int oh, int ow, int k) {
    extern __shared__ float sm[];
    int pw = TX + k - 1, ph = TY + k - 1;
    float *patch = sm;             // [ph][pw]
    float *filt = sm + ph * pw;    // [k][k]
    int plane = blockIdx.z, c = plane % channels;
    int ox0 = blockIdx.x * TX, oy0 = blockIdx.y * TY;
    const float *xp = x + (long)plane * h * wd;
    int tid = threadIdx.y * TX + threadIdx.x;
    for (int i = tid; i < ph * pw; i += TX * TY) {
        int py = i / pw, px = i % pw;
        int iy = oy0 + py, ix = ox0 + px;
        patch[i] = (iy < h && ix < wd) ? xp[(long)iy * wd + ix] : 0.f;
    }
    for (int i = tid; i < k * k; i += TX * TY) filt[i] = w[(long)c * k * k + i];
    __syncthreads();
    int ox = ox0 + threadIdx.x, oy = oy0 + threadIdx.y;
    if (ox >= ow || oy >= oh) return;
    float v = 0.f;
    for (int ky = 0; ky < k; ky++)
        for (int kx = 0; kx < k; kx++) v += patch[(threadIdx.y + ky) * pw + threadIdx.x + kx] * filt[ky * k + kx];
    y[((long)plane * oh + oy) * ow + ox] = v;
}

void kb82_launch(const float *x, const float *w, float *y, int batch, int channels, int h, int wd, int k) {
    int oh = h - k + 1, ow = wd - k + 1;
    if (batch == 0 || channels == 0 || oh <= 0 || ow <= 0) return;
    dim3 grid((ow + TX - 1) / TX, (oh + TY - 1) / TY, batch * channels);
    size_t smem = ((size_t)(TY + k - 1) * (TX + k - 1) + (size_t)k * k) * sizeof(float);
    kb82_depthwise_kernel<<<grid, dim3(TX, TY), smem>>>(x, w, y, channels, h, wd, oh, ow, k);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void kb82_launch(const float *x, const float *w, float *y, int batch, int channels, int h, int wd, int k);

torch::Tensor depthwise_cuda(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 4, "depthwise_cuda: x: want a (batch, channels, h, w) float32 CUDA tensor");
    TORCH_CHECK(w.dim() == 4 && w.size(0) == x.size(1) && w.size(1) == 1 && w.size(2) == w.size(3) && w.size(2) <= 15,
                "depthwise_cuda: weight: want (channels, 1, k, k), k <= 15");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    int k = (int)wc.size(2);
    auto y = torch::empty({xc.size(0), xc.size(1), xc.size(2) - k + 1, xc.size(3) - k + 1}, xc.options());
    kb82_launch(xc.data_ptr<float>(), wc.data_ptr<float>(), y.data_ptr<float>(), (int)xc.size(0), (int)xc.size(1), (int)xc.size(2), (int)xc.size(3), k);
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="cudaperf_kb_82_depthwise",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['depthwise_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, kernel_size: int, stride: int = 1, padding: int = 0, bias: bool = False):
        super().__init__()
        if stride != 1 or padding != 0 or bias:
            raise ValueError("this candidate implements stride 1, padding 0, no bias (problem 82's configuration)")
        # The same module as Model's, so that the weights are the same.
        self.conv2d = nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding, groups=in_channels, bias=bias)

    def forward(self, x):
        return ext.depthwise_cuda(x, self.conv2d.weight)
