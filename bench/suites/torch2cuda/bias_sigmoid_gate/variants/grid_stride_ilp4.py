import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

// A grid of 8 blocks per SM strides over the tensor, four independent
// elements per iteration per thread.
__global__ void gate_ilp4_kernel(const float *__restrict__ x, const float *__restrict__ bias, float *__restrict__ y,
                                 long n, int cols, float scale) {
    long stride = (long)gridDim.x * blockDim.x;
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        float v[4], z[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            long j = i + k * stride;
            v[k] = x[j];
            z[k] = v[k] * scale + bias[j % cols];
        }
#pragma unroll
        for (int k = 0; k < 4; k++) y[i + k * stride] = v[k] / (1.f + expf(-z[k]));
    }
    for (; i < n; i += stride) {
        float v = x[i];
        y[i] = v / (1.f + expf(-(v * scale + bias[i % cols])));
    }
}

torch::Tensor gate_cuda(torch::Tensor x, torch::Tensor bias, double scale) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "gate_cuda: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(bias.is_cuda() && bias.scalar_type() == torch::kFloat32 && bias.numel() == x.size(1), "gate_cuda: bias must have one float per column");
    auto xc = x.contiguous();
    auto bc = bias.contiguous();
    auto y = torch::empty_like(xc);
    int rows = xc.size(0), cols = xc.size(1);
    if (rows > 0 && cols > 0) {
        long n = (long)rows * cols;
        int sms = 0;
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, xc.get_device());
        gate_ilp4_kernel<<<8 * sms, 256>>>(xc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), n, cols, (float)scale);
    }
    return y;
}
"""

gate_ext = load_inline(
    name="bias_sigmoid_gate_grid_stride_ilp4",
    cpp_sources="torch::Tensor gate_cuda(torch::Tensor x, torch::Tensor bias, double scale);",
    cuda_sources=cuda_source,
    functions=["gate_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, cols, scale):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols))
        self.scale = scale

    def forward(self, x):
        return gate_ext.gate_cuda(x, self.bias, self.scale)
