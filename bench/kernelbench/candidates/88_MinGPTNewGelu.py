import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// The tanh GELU of minGPT, fused into one pass: float4 loads and stores,
// the n % 4 tail by the first threads.
__device__ __forceinline__ float gelu(float v) {
    const float k = 0.7978845608028654f;  // sqrt(2/pi)
    return 0.5f * v * (1.f + tanhf(k * (v + 0.044715f * v * v * v)));
}

__global__ void kb88_gelu_kernel(const float4 *__restrict__ x, float4 *__restrict__ y, long n4, const float *__restrict__ xs, float *__restrict__ ys, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = x[i];
        y[i] = make_float4(gelu(v.x), gelu(v.y), gelu(v.z), gelu(v.w));
    }
    long t = 4 * n4 + i;
    if (i < 4 && t < n) ys[t] = gelu(xs[t]);
}

void kb88_launch(const float *x, float *y, long n) {
    if (n == 0) return;
    long n4 = n / 4;
    long blocks = ((n4 > 4 ? n4 : 4) + 255) / 256;
    kb88_gelu_kernel<<<(unsigned)blocks, 256>>>(reinterpret_cast<const float4 *>(x), reinterpret_cast<float4 *>(y), n4, x, y, n);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void kb88_launch(const float *x, float *y, long n);

torch::Tensor gelu_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "gelu_cuda: want a float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    kb88_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.numel());
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="cudaperf_kb_88_gelu",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['gelu_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.gelu_cuda(x)
