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

#define PER 4  // float4s per thread: rows up to 256 * 16 = 4096 columns
// One 256-thread block per row held in registers (float4): one read, one
// write.
__global__ void l2n_cached_kernel(const float *__restrict__ x, float *__restrict__ y, long cols) {
    __shared__ float sh[32];
    long n4 = cols / 4;
    const float4 *p = reinterpret_cast<const float4 *>(x + blockIdx.x * cols);
    float4 *q = reinterpret_cast<float4 *>(y + blockIdx.x * cols);
    float4 v[PER];
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < PER; k++) {
        long i = threadIdx.x + (long)k * 256;
        v[k] = i < n4 ? p[i] : make_float4(0.f, 0.f, 0.f, 0.f);
        s += v[k].x * v[k].x + v[k].y * v[k].y + v[k].z * v[k].z + v[k].w * v[k].w;
    }
    float inv = 1.f / fmaxf(sqrtf(block_sum(s, sh)), 1e-12f);
#pragma unroll
    for (int k = 0; k < PER; k++) {
        long i = threadIdx.x + (long)k * 256;
        if (i < n4) q[i] = make_float4(v[k].x * inv, v[k].y * inv, v[k].z * inv, v[k].w * inv);
    }
}

void l2norm_rows_launch(const float *x, float *y, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    l2n_cached_kernel<<<(unsigned)rows, 256>>>(x, y, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void l2norm_rows_launch(const float *x, float *y, long rows, long cols);

torch::Tensor l2norm_rows_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "l2norm_rows_cuda: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(x.size(1) % 4 == 0 && x.size(1) <= 4096, "l2norm_rows_cuda: this variant needs a multiple of 4 columns, at most 4096");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    l2norm_rows_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.size(0), xc.size(1));
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="l2norm_rows_block_cached_float4",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['l2norm_rows_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.l2norm_rows_cuda(x)
