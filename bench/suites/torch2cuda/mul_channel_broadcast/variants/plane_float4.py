import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// Like plane_grid, 16 bytes per access when a plane is a whole number of
// float4s (hw % 4 == 0; planes then start 16-byte aligned too).
__global__ void mul_ch_plane4_kernel(const float *__restrict__ x, const float *__restrict__ s, float *__restrict__ out,
                                     long channels, long hw) {
    long plane = blockIdx.y;
    float k = s[plane % channels];
    long step = (long)gridDim.x * blockDim.x;
    long first = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if ((hw & 3) == 0) {
        const float4 *xp = reinterpret_cast<const float4 *>(x + plane * hw);
        float4 *op = reinterpret_cast<float4 *>(out + plane * hw);
        for (long i = first; i < hw / 4; i += step) {
            float4 v = xp[i];
            v.x *= k; v.y *= k; v.z *= k; v.w *= k;
            op[i] = v;
        }
    } else {
        for (long i = first; i < hw; i += step) out[plane * hw + i] = x[plane * hw + i] * k;
    }
}

void mul_channel_broadcast_launch(const float *x, const float *s, float *out, long planes, long channels, long hw) {
    if (planes == 0 || hw == 0) return;
    long bx = (hw / 4 + 255) / 256;
    dim3 grid((unsigned)(bx < 1 ? 1 : (bx < 16 ? bx : 16)), (unsigned)planes);
    mul_ch_plane4_kernel<<<grid, 256>>>(x, s, out, channels, hw);
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
    name="mul_channel_broadcast_plane_float4",
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
