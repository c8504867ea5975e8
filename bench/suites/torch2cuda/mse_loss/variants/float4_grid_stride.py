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

// A grid of a few blocks per multiprocessor strides over the data with
// float4 loads (the n % 4 tail by thread 0); one atomicAdd per block.
__global__ void mse_f4_kernel(const float4 *__restrict__ a, const float4 *__restrict__ b, const float *__restrict__ as,
                              const float *__restrict__ bs, float *__restrict__ out, long n) {
    long n4 = n / 4;
    float s = 0.f;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x) {
        float4 x = a[i], y = b[i];
        float d0 = x.x - y.x, d1 = x.y - y.y, d2 = x.z - y.z, d3 = x.w - y.w;
        s += d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (long i = 4 * n4; i < n; i++) { float d = as[i] - bs[i]; s += d * d; }
    s = block_sum256(s);
    if (threadIdx.x == 0) atomicAdd(out, s / (float)n);
}

void mse_loss_launch(const float *a, const float *b, float *out, float *scratch, long n) {
    cudaMemsetAsync(out, 0, sizeof(float));
    if (n == 0) return;
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    }
    mse_f4_kernel<<<sms * 4, 256>>>(reinterpret_cast<const float4 *>(a), reinterpret_cast<const float4 *>(b), a, b, out, n);
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
    name="mse_loss_float4_grid_stride",
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
