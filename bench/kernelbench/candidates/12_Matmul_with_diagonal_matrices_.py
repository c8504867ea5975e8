import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// C = diag(A) @ B is a row scaling: C[i, j] = A[i] * B[i, j]. A 2-D grid
// with blockIdx.y the row (A[i] one load), float4 along the row when it is
// a whole number of them.
__global__ void kb12_diag_scale_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, long cols) {
    long row = blockIdx.y;
    float s = a[row];
    const float *br = b + row * cols;
    float *cr = c + row * cols;
    long step = (long)gridDim.x * blockDim.x;
    long first = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if ((cols & 3) == 0) {
        const float4 *b4 = reinterpret_cast<const float4 *>(br);
        float4 *c4 = reinterpret_cast<float4 *>(cr);
        for (long i = first; i < cols / 4; i += step) {
            float4 v = b4[i];
            c4[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
        }
    } else {
        for (long i = first; i < cols; i += step) cr[i] = br[i] * s;
    }
}

void kb12_launch(const float *a, const float *b, float *c, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    long bx = (cols / 4 + 255) / 256;
    dim3 grid((unsigned)(bx < 1 ? 1 : (bx < 8 ? bx : 8)), (unsigned)rows);
    kb12_diag_scale_kernel<<<grid, 256>>>(a, b, c, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void kb12_launch(const float *a, const float *b, float *c, long rows, long cols);

torch::Tensor diag_matmul_cuda(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda() && a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32 && a.dim() == 1 && b.dim() == 2 && a.size(0) == b.size(0),
                "diag_matmul_cuda: want A (n,) and B (n, m) float32 CUDA tensors");
    auto ac = a.contiguous();
    auto bc = b.contiguous();
    auto c = torch::empty_like(bc);
    kb12_launch(ac.data_ptr<float>(), bc.data_ptr<float>(), c.data_ptr<float>(), bc.size(0), bc.size(1));
    return c;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="cudaperf_kb_12_diag_matmul",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['diag_matmul_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return ext.diag_matmul_cuda(A, B)
