import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float gelu(float v) { return 0.5f * v * (1.f + erff(v * 0.7071067811865476f)); }

// One element per thread; the column (for the bias) from a modulo.
__global__ void bg_naive_kernel(const float *__restrict__ x, const float *__restrict__ b, float *__restrict__ y, long n, long cols) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = gelu(x[i] + b[i % cols]);
}

void bias_gelu_launch(const float *x, const float *b, float *y, long rows, long cols) {
    long n = rows * cols;
    if (n == 0) return;
    bg_naive_kernel<<<(unsigned)((n + 255) / 256), 256>>>(x, b, y, n, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void bias_gelu_launch(const float *x, const float *b, float *y, long rows, long cols);

torch::Tensor bias_gelu_cuda(torch::Tensor x, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "bias_gelu_cuda: x: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(b.numel() == x.size(1) && b.scalar_type() == torch::kFloat32, "bias_gelu_cuda: bias: want x.size(1) float32 values");
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
    name="bias_gelu_naive",
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
