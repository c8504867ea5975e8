import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// A block of 32x32 threads per 32 columns: threadIdx.y strides over the
// rows, and the 32 partial sums of each column meet in shared memory.
__global__ void col_sum_tile_kernel(const float *__restrict__ x, float *__restrict__ out, long rows, long cols) {
    __shared__ float part[32][33];
    long c = blockIdx.x * 32L + threadIdx.x;
    float s = 0.f;
    if (c < cols)
        for (long r = threadIdx.y; r < rows; r += 32) s += x[r * cols + c];
    part[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && c < cols) {
        float t = 0.f;
        for (int k = 0; k < 32; k++) t += part[k][threadIdx.x];
        out[c] = t;
    }
}

void col_sum_launch(const float *x, float *out, long rows, long cols) {
    if (cols == 0) return;
    col_sum_tile_kernel<<<(unsigned)((cols + 31) / 32), dim3(32, 32)>>>(x, out, rows, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void col_sum_launch(const float *x, float *out, long rows, long cols);

torch::Tensor col_sum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "col_sum_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto out = torch::empty({xc.size(1)}, xc.options());
    col_sum_launch(xc.data_ptr<float>(), out.data_ptr<float>(), xc.size(0), xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="col_sum_tile_smem",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['col_sum_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.col_sum_cuda(x)
