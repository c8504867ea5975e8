import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// One output per thread, a dot product straight from global memory.
__global__ void mm_naive_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float s = 0.f;
    for (int k = 0; k < K; k++) s += A[(long)row * K + k] * B[(long)k * N + col];
    C[(long)row * N + col] = s;
}

void matmul_small_launch(const float *a, const float *b, float *c, int m, int n, int k) {
    if (m == 0 || n == 0) return;
    dim3 block(32, 8);
    dim3 grid((n + 31) / 32, (m + 7) / 8);
    mm_naive_kernel<<<grid, block>>>(a, b, c, m, n, k);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void matmul_small_launch(const float *a, const float *b, float *c, int m, int n, int k);

torch::Tensor matmul_small_cuda(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda() && a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32 && a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0),
                "matmul_small_cuda: want float32 CUDA matrices (m, k) and (k, n)");
    auto ac = a.contiguous();
    auto bc = b.contiguous();
    auto c = torch::empty({ac.size(0), bc.size(1)}, ac.options());
    matmul_small_launch(ac.data_ptr<float>(), bc.data_ptr<float>(), c.data_ptr<float>(), (int)ac.size(0), (int)bc.size(1), (int)ac.size(1));
    return c;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="matmul_small_naive",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['matmul_small_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return ext.matmul_small_cuda(a, b)
