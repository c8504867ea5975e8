import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
__device__ __forceinline__ float sigm(float v) { return 1.f / (1.f + expf(-v)); }

#define TS 16
// 16x16 tiles through shared memory; each row's 16 sigmoids are summed
// with shuffles (a half-warp is one row) and added with one atomicAdd.
__global__ void lss_tiled_kernel(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ bias,
                                 float *__restrict__ out, int M, int N, int K) {
    __shared__ float Xs[TS][TS], Ws[TS][TS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    int wrow = blockIdx.x * TS + ty;
    float s = 0.f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        Xs[ty][tx] = (row < M && k0 + tx < K) ? x[(long)row * K + k0 + tx] : 0.f;
        Ws[tx][ty] = (wrow < N && k0 + tx < K) ? w[(long)wrow * K + k0 + tx] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; k++) s += Xs[ty][k] * Ws[k][tx];
        __syncthreads();
    }
    float v = (row < M && col < N) ? sigm(s + bias[col]) : 0.f;
    for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);  // within the half-warp of one row
    if (tx == 0 && row < M) atomicAdd(out + row, v);
}

void linear_sigmoid_sum_launch(const float *x, const float *w, const float *bias, float *out, int m, int n, int k) {
    if (m == 0) return;
    cudaMemsetAsync(out, 0, (size_t)m * sizeof(float));
    if (n == 0) return;
    dim3 grid((n + TS - 1) / TS, (m + TS - 1) / TS);
    lss_tiled_kernel<<<grid, dim3(TS, TS)>>>(x, w, bias, out, m, n, k);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void linear_sigmoid_sum_launch(const float *x, const float *w, const float *bias, float *out, int m, int n, int k);

torch::Tensor linear_sigmoid_sum_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 2, "linear_sigmoid_sum_cuda: x: want a 2-D float32 CUDA tensor");
    TORCH_CHECK(w.dim() == 2 && w.size(1) == x.size(1) && bias.numel() == w.size(0), "linear_sigmoid_sum_cuda: weight (out, in) and bias (out) must match x");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = bias.contiguous();
    auto out = torch::empty({xc.size(0)}, xc.options());
    linear_sigmoid_sum_launch(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), (int)xc.size(0), (int)wc.size(0), (int)xc.size(1));
    return out;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="linear_sigmoid_sum_tiled_rowreduce",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['linear_sigmoid_sum_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return ext.linear_sigmoid_sum_cuda(x, self.linear.weight, self.linear.bias)
