import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <math.h>

__device__ __forceinline__ float op(float v) {
    return v / (1.f + expf(-v));
}

// One element per thread, computed in float.
__global__ void silu_bf16_naive_kernel(const __nv_bfloat16 *__restrict__ x, __nv_bfloat16 *__restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = __float2bfloat16(op(__bfloat162float(x[i])));
}

void silu_bf16_launch(const void *x, void *y, long n) {
    if (n == 0) return;
    int threads = 256;
    silu_bf16_naive_kernel<<<(unsigned)((n + threads - 1) / threads), threads>>>(
        static_cast<const __nv_bfloat16 *>(x), static_cast<__nv_bfloat16 *>(y), n);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void silu_bf16_launch(const void *x, void *y, long n);

torch::Tensor silu_bf16_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kBFloat16, "silu_bf16_cuda: want a bfloat16 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    silu_bf16_launch(xc.data_ptr(), y.data_ptr(), xc.numel());
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="silu_bf16_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['silu_bf16_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.silu_bf16_cuda(x)
