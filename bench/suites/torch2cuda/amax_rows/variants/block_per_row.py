import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// One 256-thread block per row, four independent maxima per thread (ILP),
// then warp shuffles and the 8 warp results through shared memory.
__global__ void amax_block_kernel(const float *__restrict__ x, float *__restrict__ out, long cols) {
    __shared__ float wm[8];
    const float *p = x + blockIdx.x * cols;
    float m0 = -INFINITY, m1 = -INFINITY, m2 = -INFINITY, m3 = -INFINITY;
    long c = threadIdx.x;
    for (; c + 768 < cols; c += 1024) {
        m0 = fmaxf(m0, p[c]); m1 = fmaxf(m1, p[c + 256]); m2 = fmaxf(m2, p[c + 512]); m3 = fmaxf(m3, p[c + 768]);
    }
    for (; c < cols; c += 256) m0 = fmaxf(m0, p[c]);
    float m = fmaxf(fmaxf(m0, m1), fmaxf(m2, m3));
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if ((threadIdx.x & 31) == 0) wm[threadIdx.x >> 5] = m;
    __syncthreads();
    if (threadIdx.x < 32) {
        m = threadIdx.x < 8 ? wm[threadIdx.x] : -INFINITY;
        for (int o = 4; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        if (threadIdx.x == 0) out[blockIdx.x] = m;
    }
}

void amax_rows_launch(const float *x, float *out, long rows, long cols) {
    if (rows == 0) return;
    amax_block_kernel<<<(unsigned)rows, 256>>>(x, out, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void amax_rows_launch(const float *x, float *out, long rows, long cols);

torch::Tensor amax_rows_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "amax_rows_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto out = torch::empty({xc.size(0)}, xc.options().dtype(torch::kFloat32));
    amax_rows_launch(xc.data_ptr<float>(), out.data_ptr<float>(), xc.size(0), xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="amax_rows_block_per_row",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['amax_rows_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.amax_rows_cuda(x)
