import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

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

#define PER 4  // float4s per thread: rows up to 256 * 4 * 4 = 4096 columns
// One 256-thread block per row held in registers (float4 loads): one
// global read, two-pass statistics from the registers, one write.
__global__ void ln_cached_kernel(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ b,
                                 float *__restrict__ y, long cols, float eps) {
    __shared__ float sh[32];
    long n4 = cols / 4;
    const float4 *p = reinterpret_cast<const float4 *>(x + blockIdx.x * cols);
    float4 *q = reinterpret_cast<float4 *>(y + blockIdx.x * cols);
    const float4 *w4 = reinterpret_cast<const float4 *>(w);
    const float4 *b4 = reinterpret_cast<const float4 *>(b);
    float4 v[PER];
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < PER; k++) {
        long i = threadIdx.x + (long)k * 256;
        v[k] = i < n4 ? p[i] : make_float4(0.f, 0.f, 0.f, 0.f);
        s += v[k].x + v[k].y + v[k].z + v[k].w;
    }
    float mean = block_sum(s, sh) / (float)cols;
    float ss = 0.f;
#pragma unroll
    for (int k = 0; k < PER; k++) {
        long i = threadIdx.x + (long)k * 256;
        if (i < n4) {
            float a = v[k].x - mean, bb = v[k].y - mean, c = v[k].z - mean, d = v[k].w - mean;
            ss += a * a + bb * bb + c * c + d * d;
        }
    }
    float rstd = rsqrtf(block_sum(ss, sh) / (float)cols + eps);
#pragma unroll
    for (int k = 0; k < PER; k++) {
        long i = threadIdx.x + (long)k * 256;
        if (i < n4) {
            float4 ww = w4[i], bv = b4[i], o;
            o.x = (v[k].x - mean) * rstd * ww.x + bv.x;
            o.y = (v[k].y - mean) * rstd * ww.y + bv.y;
            o.z = (v[k].z - mean) * rstd * ww.z + bv.z;
            o.w = (v[k].w - mean) * rstd * ww.w + bv.w;
            q[i] = o;
        }
    }
}

void layernorm_launch(const float *x, const float *w, const float *b, float *y, long rows, long cols, float eps) {
    if (rows == 0 || cols == 0) return;
    ln_cached_kernel<<<(unsigned)rows, 256>>>(x, w, b, y, cols, eps);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void layernorm_launch(const float *x, const float *w, const float *b, float *y, long rows, long cols, float eps);

torch::Tensor layernorm_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "layernorm_cuda: x: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(w.numel() == x.size(1) && b.numel() == x.size(1) && w.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32,
                "layernorm_cuda: weight and bias: want x.size(1) float32 values each");
    TORCH_CHECK(x.size(1) % 4 == 0 && x.size(1) <= 4096, "layernorm_cuda: this variant needs a multiple of 4 columns, at most 4096");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    auto y = torch::empty_like(xc);
    layernorm_launch(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), xc.size(0), xc.size(1), (float)eps);
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="layernorm_block_cached_float4",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['layernorm_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, cols, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cols))
        self.bias = nn.Parameter(torch.randn(cols))
        self.eps = eps

    def forward(self, x):
        return ext.layernorm_cuda(x, self.weight, self.bias, self.eps)
