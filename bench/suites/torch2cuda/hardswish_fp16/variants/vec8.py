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

// Eight elements per thread through one 16-byte load (uint4 = four
// __half2); the n % 8 tail is done by the first threads, one each.
__global__ void hardswish_fp16_vec8_kernel(const uint4 *__restrict__ x, uint4 *__restrict__ y, long n8,
                                const __half *__restrict__ xs, __half *__restrict__ ys, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n8) {
        uint4 raw = x[i];
        __half2 *p = reinterpret_cast<__half2 *>(&raw);
#pragma unroll
        for (int k = 0; k < 4; k++) {
            float2 v = __half22float2(p[k]);
            p[k] = __floats2half2_rn(op(v.x), op(v.y));
        }
        y[i] = raw;
    }
    long t = 8 * n8 + i;
    if (i < 8 && t < n) ys[t] = __float2half(op(__half2float(xs[t])));
}

void hardswish_fp16_launch(const void *x, void *y, long n) {
    if (n == 0) return;
    long n8 = n / 8;
    int threads = 256;
    long blocks = ((n8 > 8 ? n8 : 8) + threads - 1) / threads;
    hardswish_fp16_vec8_kernel<<<(unsigned)blocks, threads>>>(static_cast<const uint4 *>(x), static_cast<uint4 *>(y), n8,
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
    name="hardswish_fp16_vec8",
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
