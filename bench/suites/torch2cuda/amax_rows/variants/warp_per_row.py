import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// One warp per row: lanes stride the row (coalesced), then a shuffle
// reduction.
__global__ void amax_warp_kernel(const float *__restrict__ x, float *__restrict__ out, long rows, long cols) {
    long r = (blockIdx.x * (long)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (r >= rows) return;
    const float *p = x + r * cols;
    float m = -INFINITY;
    for (long c = lane; c < cols; c += 32) m = fmaxf(m, p[c]);
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (lane == 0) out[r] = m;
}

void amax_rows_launch(const float *x, float *out, long rows, long cols) {
    if (rows == 0) return;
    amax_warp_kernel<<<(unsigned)((rows * 32 + 255) / 256), 256>>>(x, out, rows, cols);
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
    name="amax_rows_warp_per_row",
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
