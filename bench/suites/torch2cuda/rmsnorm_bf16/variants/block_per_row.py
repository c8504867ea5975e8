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

// One 256-thread block per row, block-wide sum of squares.
__global__ void rms_block_kernel(const __nv_bfloat16 *__restrict__ x, const __nv_bfloat16 *__restrict__ w,
                                 __nv_bfloat16 *__restrict__ y, long cols, float eps) {
    __shared__ float sh[32];
    const __nv_bfloat16 *p = x + blockIdx.x * cols;
    __nv_bfloat16 *q = y + blockIdx.x * cols;
    float s = 0.f;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) { float v = __bfloat162float(p[c]); s += v * v; }
    float inv = rsqrtf(block_sum(s, sh) / (float)cols + eps);
    for (long c = threadIdx.x; c < cols; c += blockDim.x)
        q[c] = __float2bfloat16(__bfloat162float(p[c]) * inv * __bfloat162float(w[c]));
}

void rmsnorm_bf16_launch(const void *x, const void *w, void *y, long rows, long cols, float eps) {
    if (rows == 0 || cols == 0) return;
    rms_block_kernel<<<(unsigned)rows, 256>>>(static_cast<const __nv_bfloat16 *>(x), static_cast<const __nv_bfloat16 *>(w),
        static_cast<__nv_bfloat16 *>(y), cols, eps);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void rmsnorm_bf16_launch(const void *x, const void *w, void *y, long rows, long cols, float eps);

torch::Tensor rmsnorm_bf16_cuda(torch::Tensor x, torch::Tensor w, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kBFloat16 && x.dim() == 2, "rmsnorm_bf16_cuda: x: want a 2-D bfloat16 CUDA tensor");
    TORCH_CHECK(w.scalar_type() == torch::kBFloat16 && w.numel() == x.size(1), "rmsnorm_bf16_cuda: weight: want x.size(1) bfloat16 values");
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
    name="rmsnorm_bf16_block_per_row",
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
