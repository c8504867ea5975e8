import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// A 32x8 block per (batch, 32 columns): the 8 rows of threads split the
// middle axis, and their partial sums meet in shared memory.
__global__ void mean_mid_tile_kernel(const float *__restrict__ x, float *__restrict__ out, long mid, long cols) {
    __shared__ float part[8][33];
    long b = blockIdx.y;
    long c = blockIdx.x * 32L + threadIdx.x;
    float s = 0.f;
    if (c < cols) {
        const float *p = x + b * mid * cols + c;
        for (long k = threadIdx.y; k < mid; k += 8) s += p[k * cols];
    }
    part[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && c < cols) {
        float t = 0.f;
        for (int k = 0; k < 8; k++) t += part[k][threadIdx.x];
        out[b * cols + c] = t / (float)mid;
    }
}

void mean_mid_axis_launch(const float *x, float *out, long batch, long mid, long cols) {
    if (batch * cols == 0) return;
    dim3 grid((unsigned)((cols + 31) / 32), (unsigned)batch);
    mean_mid_tile_kernel<<<grid, dim3(32, 8)>>>(x, out, mid, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void mean_mid_axis_launch(const float *x, float *out, long batch, long mid, long cols);

torch::Tensor mean_mid_axis_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 3, "mean_mid_axis_cuda: want a 3-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto out = torch::empty({xc.size(0), xc.size(2)}, xc.options());
    mean_mid_axis_launch(xc.data_ptr<float>(), out.data_ptr<float>(), xc.size(0), xc.size(1), xc.size(2));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="mean_mid_axis_tile_smem",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['mean_mid_axis_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.mean_mid_axis_cuda(x)
