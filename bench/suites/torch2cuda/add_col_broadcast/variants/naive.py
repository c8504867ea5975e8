import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// One element per thread; the row index comes from a division.
__global__ void add_col_naive_kernel(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ out, long n, long cols) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i / cols];
}

void add_col_broadcast_launch(const float *x, const float *y, float *out, long rows, long cols) {
    long n = rows * cols;
    if (n == 0) return;
    add_col_naive_kernel<<<(unsigned)((n + 255) / 256), 256>>>(x, y, out, n, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void add_col_broadcast_launch(const float *x, const float *y, float *out, long rows, long cols);

torch::Tensor add_col_broadcast_cuda(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "add_col_broadcast_cuda: x: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(y.is_cuda() && y.scalar_type() == torch::kFloat32 && y.numel() == x.size(0), "add_col_broadcast_cuda: y: want x.size(0) float32 values");
    auto xc = x.contiguous();
    auto yc = y.contiguous();
    auto out = torch::empty_like(xc);
    add_col_broadcast_launch(xc.data_ptr<float>(), yc.data_ptr<float>(), out.data_ptr<float>(), xc.size(0), xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="add_col_broadcast_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['add_col_broadcast_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return ext.add_col_broadcast_cuda(x, y)
