import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

#define TS 16
// 16x16 tiles of A and B staged in shared memory: each global value is
// read K/16 times less often than in the naive kernel.
__global__ void mm_tiled_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K) {
    __shared__ float As[TS][TS], Bs[TS][TS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float s = 0.f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[(long)row * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(long)(k0 + ty) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; k++) s += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[(long)row * N + col] = s;
}

void matmul_small_launch(const float *a, const float *b, float *c, int m, int n, int k) {
    if (m == 0 || n == 0) return;
    dim3 grid((n + TS - 1) / TS, (m + TS - 1) / TS);
    mm_tiled_kernel<<<grid, dim3(TS, TS)>>>(a, b, c, m, n, k);
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
    name="matmul_small_smem_tiled16",
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
