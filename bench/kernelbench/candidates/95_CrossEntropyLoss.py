import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// Cross entropy, mean over the batch: one 256-thread block per row
// computes log(sum(exp(x - max))) + max - x[target] (block-wide max and
// sum through shared memory) and writes it; a second one-block kernel
// averages the per-row losses (deterministic).
__device__ float kb95_block_reduce(float v, bool is_max) {
    __shared__ float sh[8];
    for (int o = 16; o > 0; o >>= 1) {
        float u = __shfl_xor_sync(0xffffffffu, v, o);
        v = is_max ? fmaxf(v, u) : v + u;
    }
    __syncthreads();
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    float t = sh[0];
    for (int k = 1; k < 8; k++) t = is_max ? fmaxf(t, sh[k]) : t + sh[k];
    return t;
}

__global__ void kb95_row_loss_kernel(const float *__restrict__ x, const long long *__restrict__ target, float *__restrict__ loss, long classes) {
    const float *p = x + blockIdx.x * classes;
    float m = -INFINITY;
    for (long c = threadIdx.x; c < classes; c += 256) m = fmaxf(m, p[c]);
    m = kb95_block_reduce(m, true);
    float s = 0.f;
    for (long c = threadIdx.x; c < classes; c += 256) s += expf(p[c] - m);
    s = kb95_block_reduce(s, false);
    if (threadIdx.x == 0) loss[blockIdx.x] = logf(s) + m - p[target[blockIdx.x]];
}

__global__ void kb95_mean_kernel(const float *__restrict__ loss, long rows, float *__restrict__ out) {
    float s = 0.f;
    for (long i = threadIdx.x; i < rows; i += 256) s += loss[i];
    s = kb95_block_reduce(s, false);
    if (threadIdx.x == 0) out[0] = s / (float)rows;
}

void kb95_launch(const float *x, const long long *target, float *loss, float *out, long rows, long classes) {
    if (rows == 0) return;
    kb95_row_loss_kernel<<<(unsigned)rows, 256>>>(x, target, loss, classes);
    kb95_mean_kernel<<<1, 256>>>(loss, rows, out);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void kb95_launch(const float *x, const long long *target, float *loss, float *out, long rows, long classes);

torch::Tensor cross_entropy_cuda(torch::Tensor x, torch::Tensor target) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "cross_entropy_cuda: predictions: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(target.is_cuda() && target.scalar_type() == torch::kInt64 && target.numel() == x.size(0), "cross_entropy_cuda: targets: want one int64 class per row");
    auto xc = x.contiguous();
    auto tc = target.contiguous();
    auto loss = torch::empty({xc.size(0)}, xc.options());
    auto out = torch::empty({}, xc.options());
    kb95_launch(xc.data_ptr<float>(), reinterpret_cast<const long long *>(tc.data_ptr<int64_t>()), loss.data_ptr<float>(), out.data_ptr<float>(), xc.size(0), xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="cudaperf_kb_95_cross_entropy",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['cross_entropy_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return ext.cross_entropy_cuda(predictions, targets)
