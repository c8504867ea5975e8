# expect: pytorch_op
# Launches its own kernel on one element and lets torch::relu do the work.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

__global__ void cheat_relu_kernel(const float *x, float *y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

torch::Tensor relu_cuda(torch::Tensor x) {
    auto y = torch::relu(x);
    cheat_relu_kernel<<<1, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), 1);
    return y;
}
"""

ext = load_inline(
    name="selftest_relu_torch_dominant",
    cpp_sources="torch::Tensor relu_cuda(torch::Tensor x);",
    cuda_sources=cuda_source,
    functions=["relu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.relu_cuda(x)
