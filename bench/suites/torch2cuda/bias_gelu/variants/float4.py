import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float gelu(float v) { return 0.5f * v * (1.f + erff(v * 0.7071067811865476f)); }

// Four consecutive elements per thread with float4 loads of x and of the
// bias (needs cols % 4 == 0, so that a float4 never crosses a row).
__global__ void bg_f4_kernel(const float4 *__restrict__ x, const float4 *__restrict__ b, float4 *__restrict__ y, long n4, long cols4) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = x[i], bb = b[i % cols4];
    y[i] = make_float4(gelu(v.x + bb.x), gelu(v.y + bb.y), gelu(v.z + bb.z), gelu(v.w + bb.w));
}

void bias_gelu_launch(const float *x, const float *b, float *y, long rows, long cols) {
    long n4 = rows * cols / 4;
    if (n4 == 0) return;
    bg_f4_kernel<<<(unsigned)((n4 + 255) / 256), 256>>>(reinterpret_cast<const float4 *>(x), reinterpret_cast<const float4 *>(b),
        reinterpret_cast<float4 *>(y), n4, cols / 4);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void bias_gelu_launch(const float *x, const float *b, float *y, long rows, long cols);

torch::Tensor bias_gelu_cuda(torch::Tensor x, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "bias_gelu_cuda: x: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(b.numel() == x.size(1) && b.scalar_type() == torch::kFloat32, "bias_gelu_cuda: bias: want x.size(1) float32 values");
    TORCH_CHECK(x.size(1) % 4 == 0, "bias_gelu_cuda: this variant needs a multiple of 4 columns");
    auto xc = x.contiguous();
    auto bc = b.contiguous();
    auto y = torch::empty_like(xc);
    bias_gelu_launch(xc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), xc.size(0), xc.size(1));
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="bias_gelu_float4",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['bias_gelu_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols))

    def forward(self, x):
        return ext.bias_gelu_cuda(x, self.bias)
