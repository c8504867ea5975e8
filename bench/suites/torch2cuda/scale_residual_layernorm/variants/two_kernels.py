import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// Sum over a block of blockDim.x threads (a multiple of 32, at most 1024);
// every thread gets the total. sh holds 32 floats.
__device__ float block_sum(float v, float *sh) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();  // sh may still be read from the previous call
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    float t = 0.f;
    for (int k = 0; k < (int)(blockDim.x >> 5); k++) t += sh[k];
    return t;
}

__device__ float block_max(float v, float *sh) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    __syncthreads();
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    float t = -INFINITY;
    for (int k = 0; k < (int)(blockDim.x >> 5); k++) t = fmaxf(t, sh[k]);
    return t;
}

// Unfused: one kernel writes h = x * scale + r to y, a second normalizes
// y in place (a block per row): h makes an extra round trip to memory.
__global__ void srln_axpy_kernel(const float *__restrict__ x, const float *__restrict__ r, float *__restrict__ h, long n, float scale) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) h[i] = x[i] * scale + r[i];
}

__global__ void srln_norm_kernel(float *__restrict__ h, const float *__restrict__ w, const float *__restrict__ b, long cols, float eps) {
    __shared__ float sh[32];
    float *p = h + blockIdx.x * cols;
    float s = 0.f;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) s += p[c];
    float mean = block_sum(s, sh) / (float)cols;
    float v = 0.f;
    for (long c = threadIdx.x; c < cols; c += blockDim.x) { float d = p[c] - mean; v += d * d; }
    float rstd = rsqrtf(block_sum(v, sh) / (float)cols + eps);
    for (long c = threadIdx.x; c < cols; c += blockDim.x) p[c] = (p[c] - mean) * rstd * w[c] + b[c];
}

void srln_launch(const float *x, const float *r, const float *w, const float *b, float *y, long rows, long cols, float scale, float eps) {
    long n = rows * cols;
    if (n == 0) return;
    srln_axpy_kernel<<<(unsigned)((n + 255) / 256), 256>>>(x, r, y, n, scale);
    srln_norm_kernel<<<(unsigned)rows, 256>>>(y, w, b, cols, eps);
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
    name="scale_residual_layernorm_two_kernels",
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
