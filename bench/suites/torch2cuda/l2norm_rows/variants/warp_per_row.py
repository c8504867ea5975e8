import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// One warp per row: sum of squares, then the scaled write.
__global__ void l2n_warp_kernel(const float *__restrict__ x, float *__restrict__ y, long rows, long cols) {
    long r = (blockIdx.x * (long)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (r >= rows) return;
    const float *p = x + r * cols;
    float *q = y + r * cols;
    float s = 0.f;
    for (long c = lane; c < cols; c += 32) s += p[c] * p[c];
    float inv = 1.f / fmaxf(sqrtf(warp_sum(s)), 1e-12f);
    for (long c = lane; c < cols; c += 32) q[c] = p[c] * inv;
}

void l2norm_rows_launch(const float *x, float *y, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    l2n_warp_kernel<<<(unsigned)((rows * 32 + 255) / 256), 256>>>(x, y, rows, cols);
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
    name="l2norm_rows_warp_per_row",
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
