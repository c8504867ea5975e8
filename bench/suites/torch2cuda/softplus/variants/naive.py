import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float op(float v) {
    return v > 20.f ? v : log1pf(expf(v));
}

// One element per thread.
__global__ void softplus_naive_kernel(const float *__restrict__ x, float *__restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = op(x[i]);
}

void softplus_launch(const float *x, float *y, long n) {
    if (n == 0) return;
    int threads = 256;
    softplus_naive_kernel<<<(unsigned)((n + threads - 1) / threads), threads>>>(x, y, n);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void softplus_launch(const float *x, float *y, long n);

torch::Tensor softplus_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "softplus_cuda: want a float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    softplus_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.numel());
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="softplus_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['softplus_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.softplus_cuda(x)
