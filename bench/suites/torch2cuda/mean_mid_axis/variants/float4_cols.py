import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// One thread per (batch, four columns) with 16-byte loads when cols % 4 ==
// 0 (else one column per thread): a quarter of the load instructions.
__global__ void mean_mid_f4_kernel(const float *__restrict__ x, float *__restrict__ out, long batch, long mid, long cols) {
    float inv = 1.f / (float)mid;
    if ((cols & 3) == 0) {
        long c4 = cols / 4;
        long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
        if (i >= batch * c4) return;
        long b = i / c4, c = i % c4;
        const float4 *p = reinterpret_cast<const float4 *>(x + b * mid * cols) + c;
        float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
        for (long k = 0; k < mid; k++) {
            float4 v = p[k * c4];
            s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
        }
        reinterpret_cast<float4 *>(out + b * cols)[c] = make_float4(s.x * inv, s.y * inv, s.z * inv, s.w * inv);
    } else {
        long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
        if (i >= batch * cols) return;
        long b = i / cols, c = i % cols;
        float s = 0.f;
        for (long k = 0; k < mid; k++) s += x[(b * mid + k) * cols + c];
        out[i] = s * inv;
    }
}

void mean_mid_axis_launch(const float *x, float *out, long batch, long mid, long cols) {
    long n = (cols & 3) == 0 ? batch * (cols / 4) : batch * cols;
    if (n == 0) return;
    mean_mid_f4_kernel<<<(unsigned)((n + 127) / 128), 128>>>(x, out, batch, mid, cols);
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
    name="mean_mid_axis_float4_cols",
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
