import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
// A 64x64 tile per block, 4x4 outputs per thread held in registers.

#define BM 64
#define BN 64
#define BK 16
__global__ void mm_reg_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K) {
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN + 1];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) acc[i][j] = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += 256) {
            int m = i / BK, kk = i % BK;
            int gr = row0 + m, gk = k0 + kk;
            As[kk][m] = (gr < M && gk < K) ? A[(long)gr * K + gk] : 0.f;
        }
        for (int i = threadIdx.x; i < BK * BN; i += 256) {
            int kk = i / BN, nn = i % BN;
            int gk = k0 + kk, gc = col0 + nn;
            Bs[kk][nn] = (gk < K && gc < N) ? B[(long)gk * N + gc] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            float a[4], b[4];
#pragma unroll
            for (int i = 0; i < 4; i++) a[i] = As[kk][ty * 4 + i];
#pragma unroll
            for (int j = 0; j < 4; j++) b[j] = Bs[kk][tx * 4 + j];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
            if (r < M && c < N) C[(long)r * N + c] = acc[i][j];
        }
}

void matmul_small_launch(const float *a, const float *b, float *c, int m, int n, int k) {
    if (m == 0 || n == 0) return;
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    mm_reg_kernel<<<grid, 256>>>(a, b, c, m, n, k);
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
    name="matmul_small_regtile_64x64",
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
