import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// A 2-D grid with blockIdx.y the row: a[row] is one load, and each thread
// writes four consecutive outputs with one float4 store when n % 4 == 0.
__global__ void outer_row4_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, long n) {
    long row = blockIdx.y;
    float av = a[row];
    float *orow = out + row * n;
    long c = 4 * (blockIdx.x * (long)blockDim.x + threadIdx.x);
    if ((n & 3) == 0) {
        if (c < n) {
            float4 bv = *reinterpret_cast<const float4 *>(b + c);
            *reinterpret_cast<float4 *>(orow + c) = make_float4(fabsf(av - bv.x), fabsf(av - bv.y), fabsf(av - bv.z), fabsf(av - bv.w));
        }
    } else {
        for (long k = c; k < c + 4 && k < n; k++) orow[k] = fabsf(av - b[k]);
    }
}

void abs_outer_diff_launch(const float *a, const float *b, float *out, long m, long n) {
    if (m * n == 0) return;
    dim3 grid((unsigned)((n + 1023) / 1024), (unsigned)m);
    outer_row4_kernel<<<grid, 256>>>(a, b, out, n);
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
    name="abs_outer_diff_row_float4",
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
