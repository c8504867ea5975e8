import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// A 2-D grid: blockIdx.y is the row, so y[row] is one load per thread and
// there is no division; blockIdx.x strides over the columns.
__global__ void add_col_row_grid_kernel(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ out, long cols) {
    long row = blockIdx.y;
    float b = y[row];
    const float *xr = x + row * cols;
    float *orow = out + row * cols;
    for (long c = blockIdx.x * (long)blockDim.x + threadIdx.x; c < cols; c += (long)gridDim.x * blockDim.x)
        orow[c] = xr[c] + b;
}

void add_col_broadcast_launch(const float *x, const float *y, float *out, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    long bx = (cols + 255) / 256;
    dim3 grid((unsigned)(bx < 16 ? bx : 16), (unsigned)rows);
    add_col_row_grid_kernel<<<grid, 256>>>(x, y, out, cols);
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
    name="add_col_broadcast_row_grid",
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
