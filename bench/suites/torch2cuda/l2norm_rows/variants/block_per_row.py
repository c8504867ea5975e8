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

// One 512-thread block per row, block-wide sum of squares.
__global__ void l2n_block_kernel(const float *__restrict__ x, float *__restrict__ y, long cols) {
    __shared__ float sh[32];
    const float *p = x + blockIdx.x * cols;
    float *q = y + blockIdx.x * cols;
    float s = 0.f;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) s += p[c] * p[c];
    float inv = 1.f / fmaxf(sqrtf(block_sum(s, sh)), 1e-12f);
    for (long c = threadIdx.x; c < cols; c += blockDim.x) q[c] = p[c] * inv;
}

void l2norm_rows_launch(const float *x, float *y, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    l2n_block_kernel<<<(unsigned)rows, 512>>>(x, y, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void l2norm_rows_launch(const float *x, float *y, long rows, long cols);

torch::Tensor l2norm_rows_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "l2norm_rows_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    l2norm_rows_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.size(0), xc.size(1));
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="l2norm_rows_block_per_row",
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
