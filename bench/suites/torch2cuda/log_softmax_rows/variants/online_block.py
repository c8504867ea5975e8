import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <float.h>

// One 256-thread block per row; a single pass computes each thread's
// running (max, sum of exp) with rescaling (the online softmax), the
// pairs are merged across the block, then one pass writes.
__device__ __forceinline__ void merge(float &m, float &s, float m2, float s2) {
    float mm = fmaxf(m, m2);
    if (mm == -INFINITY) return;
    s = s * expf(m - mm) + s2 * expf(m2 - mm);
    m = mm;
}

__global__ void lsm_online_kernel(const float *__restrict__ x, float *__restrict__ y, long cols) {
    __shared__ float shm[8], shs[8];
    const float *p = x + blockIdx.x * cols;
    float *q = y + blockIdx.x * cols;
    float m = -INFINITY, s = 0.f;
    for (long c = threadIdx.x; c < cols; c += 256) {
        float v = p[c];
        if (v > m) { s = s * expf(m - v) + 1.f; m = v; }
        else s += expf(v - m);
    }
    for (int o = 16; o > 0; o >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, o);
        float s2 = __shfl_xor_sync(0xffffffffu, s, o);
        merge(m, s, m2, s2);
    }
    if ((threadIdx.x & 31) == 0) { shm[threadIdx.x >> 5] = m; shs[threadIdx.x >> 5] = s; }
    __syncthreads();
    m = shm[0]; s = shs[0];
    for (int w = 1; w < 8; w++) merge(m, s, shm[w], shs[w]);
    float lse = m + logf(s);
    for (long c = threadIdx.x; c < cols; c += 256) q[c] = p[c] - lse;
}

void log_softmax_rows_launch(const float *x, float *y, long rows, long cols) {
    if (rows == 0 || cols == 0) return;
    lsm_online_kernel<<<(unsigned)rows, 256>>>(x, y, cols);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void log_softmax_rows_launch(const float *x, float *y, long rows, long cols);

torch::Tensor log_softmax_rows_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "log_softmax_rows_cuda: want a 2-D float32 CUDA tensor");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    log_softmax_rows_launch(xc.data_ptr<float>(), y.data_ptr<float>(), xc.size(0), xc.size(1));
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="log_softmax_rows_online_block",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['log_softmax_rows_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.log_softmax_rows_cuda(x)
