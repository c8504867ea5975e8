import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>
#include <cuda_bf16.h>

// Sum over a block of blockDim.x threads (a multiple of 32, at most 1024);
// every thread gets the total. sh holds 32 floats.
__device__ float block_sum(float v, float *sh) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();  // sh may still be read from the previous call
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    float t = 0.f;
    for (int k = 0; k < (int)(blockDim.x >> 5); k++) t += sh[k];
    return t;
}

__device__ float block_max(float v, float *sh) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    __syncthreads();
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    float t = -INFINITY;
    for (int k = 0; k < (int)(blockDim.x >> 5); k++) t = fmaxf(t, sh[k]);
    return t;
}

#define PER 2  // 16-byte vectors (8 values) per thread: rows up to 256 * 8 * 2 = 4096
// One 256-thread block per row kept in registers as 16-byte vectors of
// eight bfloat16: one read, one write.
__global__ void rms_vec8_kernel(const uint4 *__restrict__ x, const uint4 *__restrict__ w, uint4 *__restrict__ y, long cols, float eps) {
    __shared__ float sh[32];
    long n8 = cols / 8;
    const uint4 *p = x + blockIdx.x * n8;
    uint4 *q = y + blockIdx.x * n8;
    uint4 v[PER];
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < PER; k++) {
        long i = threadIdx.x + (long)k * 256;
        v[k] = i < n8 ? p[i] : make_uint4(0, 0, 0, 0);
        const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&v[k]);
#pragma unroll
        for (int j = 0; j < 4; j++) { float2 f = __bfloat1622float2(h[j]); s += f.x * f.x + f.y * f.y; }
    }
    float inv = rsqrtf(block_sum(s, sh) / (float)cols + eps);
#pragma unroll
    for (int k = 0; k < PER; k++) {
        long i = threadIdx.x + (long)k * 256;
        if (i < n8) {
            uint4 wv = w[i], o;
            const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&v[k]);
            const __nv_bfloat162 *hw = reinterpret_cast<const __nv_bfloat162 *>(&wv);
            __nv_bfloat162 *ho = reinterpret_cast<__nv_bfloat162 *>(&o);
#pragma unroll
            for (int j = 0; j < 4; j++) {
                float2 f = __bfloat1622float2(h[j]), g = __bfloat1622float2(hw[j]);
                ho[j] = __floats2bfloat162_rn(f.x * inv * g.x, f.y * inv * g.y);
            }
            q[i] = o;
        }
    }
}

void rmsnorm_bf16_launch(const void *x, const void *w, void *y, long rows, long cols, float eps) {
    if (rows == 0 || cols == 0) return;
    rms_vec8_kernel<<<(unsigned)rows, 256>>>(static_cast<const uint4 *>(x), static_cast<const uint4 *>(w), static_cast<uint4 *>(y), cols, eps);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void rmsnorm_bf16_launch(const void *x, const void *w, void *y, long rows, long cols, float eps);

torch::Tensor rmsnorm_bf16_cuda(torch::Tensor x, torch::Tensor w, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kBFloat16 && x.dim() == 2, "rmsnorm_bf16_cuda: x: want a 2-D bfloat16 CUDA tensor");
    TORCH_CHECK(w.scalar_type() == torch::kBFloat16 && w.numel() == x.size(1), "rmsnorm_bf16_cuda: weight: want x.size(1) bfloat16 values");
    TORCH_CHECK(x.size(1) % 8 == 0 && x.size(1) <= 4096, "rmsnorm_bf16_cuda: this variant needs a multiple of 8 columns, at most 4096");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto y = torch::empty_like(xc);
    rmsnorm_bf16_launch(xc.data_ptr(), wc.data_ptr(), y.data_ptr(), xc.size(0), xc.size(1), (float)eps);
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="rmsnorm_bf16_block_vec8",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['rmsnorm_bf16_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, cols, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cols).to(torch.bfloat16))
        self.eps = eps

    def forward(self, x):
        return ext.rmsnorm_bf16_cuda(x, self.weight, self.eps)
