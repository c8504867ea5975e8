# The test task's kernel.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

__global__ void relu_kernel(const float *x, float *y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

torch::Tensor relu_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(name="relu_a", cpp_sources="torch::Tensor relu_cuda(torch::Tensor x);", cuda_sources=cuda_source, functions=["relu_cuda"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_cuda(x)
