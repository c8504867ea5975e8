import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
__device__ __forceinline__ float sigm(float v) { return 1.f / (1.f + expf(-v)); }

// One (row, column) per thread: the dot product, the sigmoid, and an
// atomicAdd into the row's zeroed sum.
__global__ void lss_naive_kernel(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ bias,
                                 float *__restrict__ out, int M, int N, int K) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    const float *xr = x + (long)row * K, *wr = w + (long)col * K;
    float s = bias[col];
    for (int k = 0; k < K; k++) s += xr[k] * wr[k];
    atomicAdd(out + row, sigm(s));
}

void linear_sigmoid_sum_launch(const float *x, const float *w, const float *bias, float *out, int m, int n, int k) {
    if (m == 0) return;
    cudaMemsetAsync(out, 0, (size_t)m * sizeof(float));
    if (n == 0) return;
    dim3 grid((n + 31) / 32, (m + 7) / 8);
    lss_naive_kernel<<<grid, dim3(32, 8)>>>(x, w, bias, out, m, n, k);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void linear_sigmoid_sum_launch(const float *x, const float *w, const float *bias, float *out, int m, int n, int k);

torch::Tensor linear_sigmoid_sum_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "linear_sigmoid_sum_cuda: x: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(w.dim() == 2 && w.size(1) == x.size(1) && bias.numel() == w.size(0), "linear_sigmoid_sum_cuda: weight (out, in) and bias (out) must match x");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = bias.contiguous();
    auto out = torch::empty({xc.size(0)}, xc.options());
    linear_sigmoid_sum_launch(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), (int)xc.size(0), (int)wc.size(0), (int)xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="linear_sigmoid_sum_naive_atomic",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['linear_sigmoid_sum_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return ext.linear_sigmoid_sum_cuda(x, self.linear.weight, self.linear.bias)
