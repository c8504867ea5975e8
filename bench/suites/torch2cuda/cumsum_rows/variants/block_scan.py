import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

#define ITEMS 16
// One 256-thread block per row (up to 256*ITEMS columns): each thread
// scans ITEMS consecutive elements in registers, the block scans the
// thread totals (warp shuffles, then the 8 warp totals in shared memory),
// and each thread adds its exclusive prefix.
__global__ void cumsum_block_kernel(const float *__restrict__ x, float *__restrict__ out, long cols, int per) {
    __shared__ float warp_tot[8];
    const float *p = x + blockIdx.x * cols;
    float *q = out + blockIdx.x * cols;
    long c0 = (long)threadIdx.x * per;
    float v[ITEMS];
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        if (k < per && c0 + k < cols) s += p[c0 + k];
        v[k] = s;
    }
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float inc = s;
    for (int o = 1; o < 32; o <<= 1) {
        float u = __shfl_up_sync(0xffffffffu, inc, o);
        if (lane >= o) inc += u;
    }
    if (lane == 31) warp_tot[warp] = inc;
    __syncthreads();
    float before = 0.f;
    for (int w = 0; w < warp; w++) before += warp_tot[w];
    float prefix = before + inc - s;
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        if (k < per && c0 + k < cols) q[c0 + k] = prefix + v[k];
}

void cumsum_rows_launch(const float *x, float *out, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    int per = (int)((cols + 255) / 256);
    if (per > ITEMS) return;  // the wrapper refuses such rows
    cumsum_block_kernel<<<(unsigned)rows, 256>>>(x, out, cols, per);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void cumsum_rows_launch(const float *x, float *out, long rows, long cols);

torch::Tensor cumsum_rows_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "cumsum_rows_cuda: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(x.size(1) <= 256 * 16, "cumsum_rows_cuda: rows longer than 4096 columns are not supported by this variant");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    cumsum_rows_launch(xc.data_ptr<float>(), out.data_ptr<float>(), xc.size(0), xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="cumsum_rows_block_scan",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['cumsum_rows_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.cumsum_rows_cuda(x)
