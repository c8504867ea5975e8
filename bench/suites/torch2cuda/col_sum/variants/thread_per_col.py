import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// One thread per column walks all rows: a warp reads 32 adjacent columns
// of one row (coalesced), but there are only cols threads.
__global__ void col_sum_thread_kernel(const float *__restrict__ x, float *__restrict__ out, long rows, long cols) {
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float s = 0.f;
    for (long r = 0; r < rows; r++) s += x[r * cols + c];
    out[c] = s;
}

void col_sum_launch(const float *x, float *out, long rows, long cols) {
    if (cols == 0) return;
    col_sum_thread_kernel<<<(unsigned)((cols + 127) / 128), 128>>>(x, out, rows, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void col_sum_launch(const float *x, float *out, long rows, long cols);

torch::Tensor col_sum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "col_sum_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto out = torch::empty({xc.size(1)}, xc.options());
    col_sum_launch(xc.data_ptr<float>(), out.data_ptr<float>(), xc.size(0), xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="col_sum_thread_per_col",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['col_sum_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.col_sum_cuda(x)
