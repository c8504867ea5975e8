import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// (value, index) order: the larger value wins; on equal values the
// smaller index does, as torch.argmax returns the first maximum.
__device__ __forceinline__ void better(float &v, long long &i, float v2, long long i2) {
    if (v2 > v || (v2 == v && i2 < i)) { v = v2; i = i2; }
}

// One 256-thread block per row, reading float4s when the row is a whole
// number of them; warp shuffles, then the 8 warp winners through shared
// memory.
__global__ void argmax_block_kernel(const float *__restrict__ x, long long *__restrict__ out, long cols) {
    __shared__ float sv[8];
    __shared__ long long si[8];
    const float *p = x + blockIdx.x * cols;
    float v = -INFINITY;
    long long i = cols;
    if ((cols & 3) == 0) {
        const float4 *p4 = reinterpret_cast<const float4 *>(p);
        for (long c = threadIdx.x; c < cols / 4; c += 256) {
            float4 q = p4[c];
            better(v, i, q.x, 4 * c);
            better(v, i, q.y, 4 * c + 1);
            better(v, i, q.z, 4 * c + 2);
            better(v, i, q.w, 4 * c + 3);
        }
    } else {
        for (long c = threadIdx.x; c < cols; c += 256) better(v, i, p[c], c);
    }
    for (int o = 16; o > 0; o >>= 1) {
        float v2 = __shfl_xor_sync(0xffffffffu, v, o);
        long long i2 = __shfl_xor_sync(0xffffffffu, i, o);
        better(v, i, v2, i2);
    }
    if ((threadIdx.x & 31) == 0) { sv[threadIdx.x >> 5] = v; si[threadIdx.x >> 5] = i; }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < 8; w++) better(v, i, sv[w], si[w]);
        out[blockIdx.x] = i < cols ? i : 0;
    }
}

void argmax_rows_launch(const float *x, long long *out, long rows, long cols) {
    if (rows == 0) return;
    argmax_block_kernel<<<(unsigned)rows, 256>>>(x, out, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void argmax_rows_launch(const float *x, long long *out, long rows, long cols);

torch::Tensor argmax_rows_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "argmax_rows_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto out = torch::empty({xc.size(0)}, xc.options().dtype(torch::kInt64));
    argmax_rows_launch(xc.data_ptr<float>(), reinterpret_cast<long long *>(out.data_ptr<int64_t>()), xc.size(0), xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="argmax_rows_block_per_row",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['argmax_rows_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.argmax_rows_cuda(x)
