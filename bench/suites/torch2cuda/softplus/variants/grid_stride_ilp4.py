import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float op(float v) {
    return v > 20.f ? v : log1pf(expf(v));
}

// A grid of a few blocks per multiprocessor strides over the tensor; each
// iteration issues four independent loads before the stores (ILP).
__global__ void softplus_gs_kernel(const float *__restrict__ x, float *__restrict__ y, long n) {
    long stride = (long)gridDim.x * blockDim.x;
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        float a = x[i], b = x[i + stride], c = x[i + 2 * stride], d = x[i + 3 * stride];
        y[i] = op(a);
        y[i + stride] = op(b);
        y[i + 2 * stride] = op(c);
        y[i + 3 * stride] = op(d);
    }
    for (; i < n; i += stride) y[i] = op(x[i]);
}

void softplus_launch(const float *x, float *y, long n) {
    if (n == 0) return;
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    }
    int threads = 256;
    long want = (n + threads - 1) / threads;
    long blocks = want < (long)sms * 8 ? want : (long)sms * 8;
    softplus_gs_kernel<<<(unsigned)blocks, threads>>>(x, y, n);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void softplus_launch(const float *x, float *y, long n);

torch::Tensor softplus_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "softplus_cuda: want a float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    softplus_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.numel());
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="softplus_grid_stride_ilp4",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['softplus_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.softplus_cuda(x)
