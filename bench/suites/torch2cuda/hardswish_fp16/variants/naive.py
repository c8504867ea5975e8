import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <math.h>

__device__ __forceinline__ float op(float v) {
    return v * fminf(fmaxf(v + 3.f, 0.f), 6.f) * (1.f / 6.f);
}

// One element per thread, computed in float.
__global__ void hardswish_fp16_naive_kernel(const __half *__restrict__ x, __half *__restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = __float2half(op(__half2float(x[i])));
}

void hardswish_fp16_launch(const void *x, void *y, long n) {
    if (n == 0) return;
    int threads = 256;
    hardswish_fp16_naive_kernel<<<(unsigned)((n + threads - 1) / threads), threads>>>(
        static_cast<const __half *>(x), static_cast<__half *>(y), n);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void hardswish_fp16_launch(const void *x, void *y, long n);

torch::Tensor hardswish_fp16_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kHalf, "hardswish_fp16_cuda: want a float16 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    hardswish_fp16_launch(xc.data_ptr(), y.data_ptr(), xc.numel());
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="hardswish_fp16_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['hardswish_fp16_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.hardswish_fp16_cuda(x)
