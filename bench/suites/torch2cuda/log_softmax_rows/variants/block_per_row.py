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

// One 512-thread block per row; block-wide max and sum through shared
// memory, three passes over the row (the second and third hit L2/L1).
__global__ void lsm_block_kernel(const float *__restrict__ x, float *__restrict__ y, long cols) {
    __shared__ float sh[32];
    const float *p = x + blockIdx.x * cols;
    float *q = y + blockIdx.x * cols;
    float m = -INFINITY;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, p[c]);
    m = block_max(m, sh);
    float s = 0.f;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) s += expf(p[c] - m);
    float lse = m + logf(block_sum(s, sh));
    for (long c = threadIdx.x; c < cols; c += blockDim.x) q[c] = p[c] - lse;
}

void log_softmax_rows_launch(const float *x, float *y, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    lsm_block_kernel<<<(unsigned)rows, 512>>>(x, y, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void log_softmax_rows_launch(const float *x, float *y, long rows, long cols);

torch::Tensor log_softmax_rows_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "log_softmax_rows_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    log_softmax_rows_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.size(0), xc.size(1));
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="log_softmax_rows_block_per_row",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['log_softmax_rows_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.log_softmax_rows_cuda(x)
