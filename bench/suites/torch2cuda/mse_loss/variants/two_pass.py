import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

__device__ float block_sum256(float v) {
    __shared__ float sh[8];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    v = threadIdx.x < 8 ? sh[threadIdx.x] : 0.f;
    if (threadIdx.x < 32)
        for (int o = 4; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;  // the total, in thread 0
}

// Deterministic: 1024 blocks stride over the data and write one partial
// sum each; a second one-block kernel sums the partials and divides.
__global__ void mse_partial_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ part, long n) {
    float s = 0.f;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
        float d = a[i] - b[i];
        s += d * d;
    }
    s = block_sum256(s);
    if (threadIdx.x == 0) part[blockIdx.x] = s;
}

__global__ void mse_final_kernel(const float *__restrict__ part, int parts, float *__restrict__ out, long n) {
    float s = 0.f;
    for (int i = threadIdx.x; i < parts; i += blockDim.x) s += part[i];
    s = block_sum256(s);
    if (threadIdx.x == 0) out[0] = n > 0 ? s / (float)n : NAN;
}

void mse_loss_launch(const float *a, const float *b, float *out, float *scratch, long n) {
    int parts = 1024;
    mse_partial_kernel<<<parts, 256>>>(a, b, scratch, n);
    mse_final_kernel<<<1, 256>>>(scratch, parts, out, n);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void mse_loss_launch(const float *a, const float *b, float *out, float *scratch, long n);

torch::Tensor mse_loss_cuda(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda() && a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32 && a.sizes() == b.sizes(),
                "mse_loss_cuda: want two float32 CUDA tensors of one shape");
    auto ac = a.contiguous();
    auto bc = b.contiguous();
    auto out = torch::empty({}, ac.options());
    auto scratch = torch::empty({1024}, ac.options());
    mse_loss_launch(ac.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), scratch.data_ptr<float>(), ac.numel());
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="mse_loss_two_pass",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['mse_loss_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return ext.mse_loss_cuda(a, b)
