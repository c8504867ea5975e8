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

// One element per thread; each block sums its 256 squared differences
// and adds sum / n to the zeroed result with one atomicAdd.
__global__ void mse_atomic_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    float d = i < n ? a[i] - b[i] : 0.f;
    float s = block_sum256(d * d);
    if (threadIdx.x == 0) atomicAdd(out, s / (float)n);
}

void mse_loss_launch(const float *a, const float *b, float *out, float *scratch, long n) {
    cudaMemsetAsync(out, 0, sizeof(float));
    if (n == 0) return;
    mse_atomic_kernel<<<(unsigned)((n + 255) / 256), 256>>>(a, b, out, n);
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
    name="mse_loss_block_atomic",
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
