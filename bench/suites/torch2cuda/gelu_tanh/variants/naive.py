import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float op(float v) {
    const float k = 0.7978845608028654f;  // sqrt(2/pi)
    return 0.5f * v * (1.f + tanhf(k * (v + 0.044715f * v * v * v)));
}

// One element per thread.
__global__ void gelu_tanh_naive_kernel(const float *__restrict__ x, float *__restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = op(x[i]);
}

void gelu_tanh_launch(const float *x, float *y, long n) {
    if (n == 0) return;
    int threads = 256;
    gelu_tanh_naive_kernel<<<(unsigned)((n + threads - 1) / threads), threads>>>(x, y, n);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void gelu_tanh_launch(const float *x, float *y, long n);

torch::Tensor gelu_tanh_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "gelu_tanh_cuda: want a float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    gelu_tanh_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.numel());
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="gelu_tanh_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['gelu_tanh_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.gelu_tanh_cuda(x)
