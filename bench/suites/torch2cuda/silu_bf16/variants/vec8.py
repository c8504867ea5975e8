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

// Eight elements per thread through one 16-byte load (uint4 = four
// __nv_bfloat162); the n % 8 tail is done by the first threads, one each.
__global__ void silu_bf16_vec8_kernel(const uint4 *__restrict__ x, uint4 *__restrict__ y, long n8,
                                const __nv_bfloat16 *__restrict__ xs, __nv_bfloat16 *__restrict__ ys, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n8) {
        uint4 raw = x[i];
        __nv_bfloat162 *p = reinterpret_cast<__nv_bfloat162 *>(&raw);
#pragma unroll
        for (int k = 0; k < 4; k++) {
            float2 v = __bfloat1622float2(p[k]);
            p[k] = __floats2bfloat162_rn(op(v.x), op(v.y));
        }
        y[i] = raw;
    }
    long t = 8 * n8 + i;
    if (i < 8 && t < n) ys[t] = __float2bfloat16(op(__bfloat162float(xs[t])));
}

void silu_bf16_launch(const void *x, void *y, long n) {
    if (n == 0) return;
    long n8 = n / 8;
    int threads = 256;
    long blocks = ((n8 > 8 ? n8 : 8) + threads - 1) / threads;
    silu_bf16_vec8_kernel<<<(unsigned)blocks, threads>>>(static_cast<const uint4 *>(x), static_cast<uint4 *>(y), n8,
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
    name="silu_bf16_vec8",
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
