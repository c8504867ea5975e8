import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// A 32x32 tile per block (32x8 threads, four rows each): the tile's 32
// values of a and of b are staged in shared memory once.
__global__ void outer_tile_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, long m, long n) {
    __shared__ float sa[32], sb[32];
    long r0 = blockIdx.y * 32L, c0 = blockIdx.x * 32L;
    int tx = threadIdx.x, ty = threadIdx.y;
    if (ty == 0 && c0 + tx < n) sb[tx] = b[c0 + tx];
    if (ty == 1 && r0 + tx < m) sa[tx] = a[r0 + tx];
    __syncthreads();
    long c = c0 + tx;
    if (c >= n) return;
    for (int k = ty; k < 32; k += 8) {
        long r = r0 + k;
        if (r < m) out[r * n + c] = fabsf(sa[k] - sb[tx]);
    }
}

void abs_outer_diff_launch(const float *a, const float *b, float *out, long m, long n) {
    if (m * n == 0) return;
    dim3 grid((unsigned)((n + 31) / 32), (unsigned)((m + 31) / 32));
    outer_tile_kernel<<<grid, dim3(32, 8)>>>(a, b, out, m, n);
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
    name="abs_outer_diff_tile_smem",
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
