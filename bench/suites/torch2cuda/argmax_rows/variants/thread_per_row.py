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

__global__ void argmax_thread_kernel(const float *__restrict__ x, long long *__restrict__ out, long rows, long cols) {
    long r = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float *p = x + r * cols;
    float v = -INFINITY;
    long long i = 0;
    for (long c = 0; c < cols; c++) if (p[c] > v) { v = p[c]; i = c; }
    out[r] = i;
}

void argmax_rows_launch(const float *x, long long *out, long rows, long cols) {
    if (rows == 0) return;
    argmax_thread_kernel<<<(unsigned)((rows + 127) / 128), 128>>>(x, out, rows, cols);
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
    name="argmax_rows_thread_per_row",
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
