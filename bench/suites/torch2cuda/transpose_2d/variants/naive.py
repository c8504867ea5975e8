import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// One element per thread: reads are coalesced, writes stride by rows.
__global__ void tr_naive_kernel(const float *__restrict__ x, float *__restrict__ y, long rows, long cols) {
    long c = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long r = blockIdx.y;
    if (c < cols) y[c * rows + r] = x[r * cols + c];
}

void transpose_2d_launch(const float *x, float *y, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    dim3 grid((unsigned)((cols + 255) / 256), (unsigned)rows);
    tr_naive_kernel<<<grid, 256>>>(x, y, rows, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void transpose_2d_launch(const float *x, float *y, long rows, long cols);

torch::Tensor transpose_2d_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "transpose_2d_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty({xc.size(1), xc.size(0)}, xc.options());
    transpose_2d_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.size(0), xc.size(1));
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="transpose_2d_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['transpose_2d_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.transpose_2d_cuda(x)
