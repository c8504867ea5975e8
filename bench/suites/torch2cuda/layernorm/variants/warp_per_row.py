import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// One warp per row, two-pass statistics (mean, then the mean of squared
// deviations), then the normalized write.
__global__ void ln_warp_kernel(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ b,
                               float *__restrict__ y, long rows, long cols, float eps) {
    long r = (blockIdx.x * (long)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (r >= rows) return;
    const float *p = x + r * cols;
    float *q = y + r * cols;
    float s = 0.f;
    for (long c = lane; c < cols; c += 32) s += p[c];
    float mean = warp_sum(s) / (float)cols;
    float v = 0.f;
    for (long c = lane; c < cols; c += 32) { float d = p[c] - mean; v += d * d; }
    float rstd = rsqrtf(warp_sum(v) / (float)cols + eps);
    for (long c = lane; c < cols; c += 32) q[c] = (p[c] - mean) * rstd * w[c] + b[c];
}

void layernorm_launch(const float *x, const float *w, const float *b, float *y, long rows, long cols, float eps) {
    if (rows == 0 || cols == 0) return;
    ln_warp_kernel<<<(unsigned)((rows * 32 + 255) / 256), 256>>>(x, w, b, y, rows, cols, eps);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void layernorm_launch(const float *x, const float *w, const float *b, float *y, long rows, long cols, float eps);

torch::Tensor layernorm_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "layernorm_cuda: x: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(w.numel() == x.size(1) && b.numel() == x.size(1) && w.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32,
                "layernorm_cuda: weight and bias: want x.size(1) float32 values each");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    auto y = torch::empty_like(xc);
    layernorm_launch(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(), xc.size(0), xc.size(1), (float)eps);
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="layernorm_warp_per_row",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['layernorm_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, cols, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cols))
        self.bias = nn.Parameter(torch.randn(cols))
        self.eps = eps

    def forward(self, x):
        return ext.layernorm_cuda(x, self.weight, self.bias, self.eps)
