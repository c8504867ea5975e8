import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// One thread per row walks it: simple, but a warp's 32 loads hit 32
// different rows (uncoalesced).
__global__ void amax_thread_kernel(const float *__restrict__ x, float *__restrict__ out, long rows, long cols) {
    long r = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float *p = x + r * cols;
    float m = -INFINITY;
    for (long c = 0; c < cols; c++) m = fmaxf(m, p[c]);
    out[r] = m;
}

void amax_rows_launch(const float *x, float *out, long rows, long cols) {
    if (rows == 0) return;
    amax_thread_kernel<<<(unsigned)((rows + 127) / 128), 128>>>(x, out, rows, cols);
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
    name="amax_rows_thread_per_row",
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
