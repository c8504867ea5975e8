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

// Two elements per thread as one 4-byte __half2; an odd last element is
// done by thread 0.
__global__ void hardswish_fp16_pair_kernel(const __half2 *__restrict__ x, __half2 *__restrict__ y, long n2,
                                const __half *__restrict__ xs, __half *__restrict__ ys, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n2) {
        float2 v = __half22float2(x[i]);
        y[i] = __floats2half2_rn(op(v.x), op(v.y));
    }
    if (i == 0 && (n & 1)) ys[n - 1] = __float2half(op(__half2float(xs[n - 1])));
}

void hardswish_fp16_launch(const void *x, void *y, long n) {
    if (n == 0) return;
    long n2 = n / 2;
    int threads = 256;
    long blocks = ((n2 > 1 ? n2 : 1) + threads - 1) / threads;
    hardswish_fp16_pair_kernel<<<(unsigned)blocks, threads>>>(static_cast<const __half2 *>(x), static_cast<__half2 *>(y), n2,
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
    name="hardswish_fp16_pair",
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
