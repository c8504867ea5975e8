import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

// One thread per row: neighbouring threads read addresses a row apart
// (uncoalesced), the baseline of the reduction variants.
__global__ void row_sum_thread_kernel(const float *x, float *y, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float *xr = x + (long)r * cols;
    float s = 0.f;
    for (int c = 0; c < cols; c++) s += xr[c];
    y[r] = s;
}

torch::Tensor row_sum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "row_sum_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    int rows = xc.size(0), cols = xc.size(1);
    auto y = torch::empty({rows}, xc.options());
    if (rows > 0) {
        row_sum_thread_kernel<<<(rows + 127) / 128, 128>>>(xc.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    }
    return y;
}
"""

row_sum_ext = load_inline(
    name="row_sum_thread_per_row",
    cpp_sources="torch::Tensor row_sum_cuda(torch::Tensor x);",
    cuda_sources=cuda_source,
    functions=["row_sum_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return row_sum_ext.row_sum_cuda(x)
