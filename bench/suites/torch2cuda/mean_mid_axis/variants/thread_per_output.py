import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// One thread per (batch, column) output walks the middle axis; adjacent
// threads read adjacent columns (coalesced).
__global__ void mean_mid_thread_kernel(const float *__restrict__ x, float *__restrict__ out, long batch, long mid, long cols) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i >= batch * cols) return;
    long b = i / cols, c = i % cols;
    const float *p = x + b * mid * cols + c;
    float s = 0.f;
    for (long k = 0; k < mid; k++) s += p[k * cols];
    out[i] = s / (float)mid;
}

void mean_mid_axis_launch(const float *x, float *out, long batch, long mid, long cols) {
    long n = batch * cols;
    if (n == 0) return;
    mean_mid_thread_kernel<<<(unsigned)((n + 255) / 256), 256>>>(x, out, batch, mid, cols);
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
    name="mean_mid_axis_thread_per_output",
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
