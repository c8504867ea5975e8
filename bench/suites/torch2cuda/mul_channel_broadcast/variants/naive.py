import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// One element per thread; the channel is (i / hw) % channels.
__global__ void mul_ch_naive_kernel(const float *__restrict__ x, const float *__restrict__ s, float *__restrict__ out,
                                    long n, long channels, long hw) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] * s[(i / hw) % channels];
}

void mul_channel_broadcast_launch(const float *x, const float *s, float *out, long planes, long channels, long hw) {
    long n = planes * hw;
    if (n == 0) return;
    mul_ch_naive_kernel<<<(unsigned)((n + 255) / 256), 256>>>(x, s, out, n, channels, hw);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void mul_channel_broadcast_launch(const float *x, const float *s, float *out, long planes, long channels, long hw);

torch::Tensor mul_channel_broadcast_cuda(torch::Tensor x, torch::Tensor s) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 4, "mul_channel_broadcast_cuda: x: want a 4-D float32 CUDA tensor");
    TORCH_CHECK(s.is_cuda() && s.scalar_type() == torch::kFloat32 && s.numel() == x.size(1), "mul_channel_broadcast_cuda: s: want x.size(1) float32 values");
    auto xc = x.contiguous();
    auto sc = s.contiguous();
    auto out = torch::empty_like(xc);
    mul_channel_broadcast_launch(xc.data_ptr<float>(), sc.data_ptr<float>(), out.data_ptr<float>(),
                                 xc.size(0) * xc.size(1), xc.size(1), xc.size(2) * xc.size(3));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="mul_channel_broadcast_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['mul_channel_broadcast_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, s):
        return ext.mul_channel_broadcast_cuda(x, s)
