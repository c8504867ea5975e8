import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// One 256-thread block per row; each thread keeps Welford's (count, mean,
// M2) over its strided elements, merged across the block (Chan et al.).
__device__ __forceinline__ void wmerge(float &n, float &mean, float &m2, float n2, float mean2, float m22) {
    float nn = n + n2;
    if (nn == 0.f) return;
    float d = mean2 - mean;
    mean += d * (n2 / nn);
    m2 += m22 + d * d * (n * n2 / nn);
    n = nn;
}

__global__ void ln_welford_kernel(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ b,
                                  float *__restrict__ y, long cols, float eps) {
    __shared__ float sn[8], smean[8], sm2[8];
    __shared__ float stat[2];
    const float *p = x + blockIdx.x * cols;
    float *q = y + blockIdx.x * cols;
    float n = 0.f, mean = 0.f, m2 = 0.f;
    for (long c = threadIdx.x; c < cols; c += 256) {
        float v = p[c];
        n += 1.f;
        float d = v - mean;
        mean += d / n;
        m2 += d * (v - mean);
    }
    for (int o = 16; o > 0; o >>= 1)
        wmerge(n, mean, m2, __shfl_xor_sync(0xffffffffu, n, o), __shfl_xor_sync(0xffffffffu, mean, o), __shfl_xor_sync(0xffffffffu, m2, o));
    if ((threadIdx.x & 31) == 0) { sn[threadIdx.x >> 5] = n; smean[threadIdx.x >> 5] = mean; sm2[threadIdx.x >> 5] = m2; }
    __syncthreads();
    if (threadIdx.x == 0) {
        n = sn[0]; mean = smean[0]; m2 = sm2[0];
        for (int k = 1; k < 8; k++) wmerge(n, mean, m2, sn[k], smean[k], sm2[k]);
        stat[0] = mean;
        stat[1] = rsqrtf(m2 / (float)cols + eps);
    }
    __syncthreads();
    float mu = stat[0], rstd = stat[1];
    for (long c = threadIdx.x; c < cols; c += 256) q[c] = (p[c] - mu) * rstd * w[c] + b[c];
}

void layernorm_launch(const float *x, const float *w, const float *b, float *y, long rows, long cols, float eps) {
    if (rows == 0 || cols == 0) return;
    ln_welford_kernel<<<(unsigned)rows, 256>>>(x, w, b, y, cols, eps);
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
    name="layernorm_block_welford",
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
