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

// One warp per row, fused: h = x * scale + r is recomputed in each of the
// three passes instead of stored.
__global__ void srln_warp_kernel(const float *__restrict__ x, const float *__restrict__ r, const float *__restrict__ w,
                                 const float *__restrict__ b, float *__restrict__ y, long rows, long cols, float scale, float eps) {
    long row = (blockIdx.x * (long)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float *px = x + row * cols, *pr = r + row * cols;
    float *q = y + row * cols;
    float s = 0.f;
    for (long c = lane; c < cols; c += 32) s += px[c] * scale + pr[c];
    float mean = warp_sum(s) / (float)cols;
    float v = 0.f;
    for (long c = lane; c < cols; c += 32) { float d = px[c] * scale + pr[c] - mean; v += d * d; }
    float rstd = rsqrtf(warp_sum(v) / (float)cols + eps);
    for (long c = lane; c < cols; c += 32) q[c] = (px[c] * scale + pr[c] - mean) * rstd * w[c] + b[c];
}

void srln_launch(const float *x, const float *r, const float *w, const float *b, float *y, long rows, long cols, float scale, float eps) {
    if (rows == 0 || cols == 0) return;
    srln_warp_kernel<<<(unsigned)((rows * 32 + 255) / 256), 256>>>(x, r, w, b, y, rows, cols, scale, eps);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void srln_launch(const float *x, const float *r, const float *w, const float *b, float *y, long rows, long cols, float scale, float eps);

torch::Tensor scale_residual_layernorm_cuda(torch::Tensor x, torch::Tensor r, torch::Tensor w, torch::Tensor b, double scale, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "scale_residual_layernorm_cuda: x: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(r.sizes() == x.sizes() && r.scalar_type() == torch::kFloat32, "scale_residual_layernorm_cuda: the residual must match x");
    TORCH_CHECK(w.numel() == x.size(1) && b.numel() == x.size(1), "scale_residual_layernorm_cuda: weight and bias: want x.size(1) values");
    auto xc = x.contiguous();
    auto rc = r.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    auto y = torch::empty_like(xc);
    srln_launch(xc.data_ptr<float>(), rc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
                xc.size(0), xc.size(1), (float)scale, (float)eps);
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="scale_residual_layernorm_warp_fused",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['scale_residual_layernorm_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, cols, scale, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cols))
        self.bias = nn.Parameter(torch.randn(cols))
        self.scale = scale
        self.eps = eps

    def forward(self, x, residual):
        return ext.scale_residual_layernorm_cuda(x, residual, self.weight, self.bias, self.scale, self.eps)
