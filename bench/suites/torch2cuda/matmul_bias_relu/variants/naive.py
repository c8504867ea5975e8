import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// One output per thread: the dot product of a row of x and a row of the
// weight (both along K), plus the bias, then ReLU.
__global__ void mbr_naive_kernel(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ bias,
                                 float *__restrict__ out, int M, int N, int K) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    const float *xr = x + (long)row * K, *wr = w + (long)col * K;
    float s = bias[col];
    for (int k = 0; k < K; k++) s += xr[k] * wr[k];
    out[(long)row * N + col] = fmaxf(s, 0.f);
}

void matmul_bias_relu_launch(const float *x, const float *w, const float *bias, float *out, int m, int n, int k) {
    if (m == 0 || n == 0) return;
    dim3 grid((n + 31) / 32, (m + 7) / 8);
    mbr_naive_kernel<<<grid, dim3(32, 8)>>>(x, w, bias, out, m, n, k);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void matmul_bias_relu_launch(const float *x, const float *w, const float *bias, float *out, int m, int n, int k);

torch::Tensor matmul_bias_relu_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "matmul_bias_relu_cuda: x: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(w.dim() == 2 && w.size(1) == x.size(1) && bias.numel() == w.size(0), "matmul_bias_relu_cuda: weight (out, in) and bias (out) must match x");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = bias.contiguous();
    auto out = torch::empty({xc.size(0), wc.size(0)}, xc.options());
    matmul_bias_relu_launch(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), (int)xc.size(0), (int)wc.size(0), (int)xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="matmul_bias_relu_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['matmul_bias_relu_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return ext.matmul_bias_relu_cuda(x, self.linear.weight, self.linear.bias)
