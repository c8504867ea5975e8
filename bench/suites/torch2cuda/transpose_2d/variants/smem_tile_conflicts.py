import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

#define TD 32
// A 32x32 tile per block (32x8 threads, four rows each) goes through
// shared memory so that both the reads and the writes are coalesced.
// No padding: the write phase reads a tile column, 32 values in one
// bank (a 32-way bank conflict).
__global__ void tr_conflict_kernel(const float *__restrict__ x, float *__restrict__ y, long rows, long cols) {
    __shared__ float tile[TD][TD];
    long c0 = blockIdx.x * (long)TD, r0 = blockIdx.y * (long)TD;
    for (int k = threadIdx.y; k < TD; k += 8) {
        long r = r0 + k, c = c0 + threadIdx.x;
        if (r < rows && c < cols) tile[k][threadIdx.x] = x[r * cols + c];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < TD; k += 8) {
        long c = c0 + k, r = r0 + threadIdx.x;  // y is (cols, rows)
        if (c < cols && r < rows) y[c * rows + r] = tile[threadIdx.x][k];
    }
}

void transpose_2d_launch(const float *x, float *y, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    dim3 grid((unsigned)((cols + TD - 1) / TD), (unsigned)((rows + TD - 1) / TD));
    tr_conflict_kernel<<<grid, dim3(TD, 8)>>>(x, y, rows, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void transpose_2d_launch(const float *x, float *y, long rows, long cols);

torch::Tensor transpose_2d_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "transpose_2d_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty({xc.size(1), xc.size(0)}, xc.options());
    transpose_2d_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.size(0), xc.size(1));
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="transpose_2d_smem_tile_conflicts",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['transpose_2d_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.transpose_2d_cuda(x)
