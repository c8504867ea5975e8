import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// One output per thread; row and column from a division.
__global__ void outer_naive_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, long m, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < m * n) out[i] = fabsf(a[i / n] - b[i % n]);
}

void abs_outer_diff_launch(const float *a, const float *b, float *out, long m, long n) {
    if (m * n == 0) return;
    outer_naive_kernel<<<(unsigned)((m * n + 255) / 256), 256>>>(a, b, out, m, n);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void abs_outer_diff_launch(const float *a, const float *b, float *out, long m, long n);

torch::Tensor abs_outer_diff_cuda(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && a.scalar_type() == torch::kFloat32 && b.is_cuda() && b.scalar_type() == torch::kFloat32,
                "abs_outer_diff_cuda: want float32 CUDA tensors");
    auto ac = a.contiguous();
    auto bc = b.contiguous();
    long m = ac.numel(), n = bc.numel();
    auto out = torch::empty({m, n}, ac.options());
    abs_outer_diff_launch(ac.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), m, n);
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="abs_outer_diff_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['abs_outer_diff_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return ext.abs_outer_diff_cuda(a, b)
