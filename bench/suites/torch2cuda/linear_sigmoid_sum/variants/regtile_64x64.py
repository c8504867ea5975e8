import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>
__device__ __forceinline__ float sigm(float v) { return 1.f / (1.f + expf(-v)); }
// A 64x64 tile per block, 4x4 outputs per thread; sigmoid and the row sums in the epilogue.

#define BM 64
#define BN 64
#define BK 16
__global__ void lss_reg_kernel(const float *__restrict__ A, const float *__restrict__ B, const float *__restrict__ bias, float *__restrict__ out, int M, int N, int K) {
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN + 1];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) acc[i][j] = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += 256) {
            int m = i / BK, kk = i % BK;
            int gr = row0 + m, gk = k0 + kk;
            As[kk][m] = (gr < M && gk < K) ? A[(long)gr * K + gk] : 0.f;
        }
        for (int i = threadIdx.x; i < BK * BN; i += 256) {
            int nn = i / BK, kk = i % BK;
            int gk = k0 + kk, gc = col0 + nn;
            Bs[kk][nn] = (gk < K && gc < N) ? B[(long)gc * K + gk] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            float a[4], b[4];
#pragma unroll
            for (int i = 0; i < 4; i++) a[i] = As[kk][ty * 4 + i];
#pragma unroll
            for (int j = 0; j < 4; j++) b[j] = Bs[kk][tx * 4 + j];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    // Each thread sums its 4 columns of each of its 4 rows; the 16 threads
    // of a row (consecutive tx, one half-warp) meet by shuffles.
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int r = row0 + ty * 4 + i;
        float v = 0.f;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int c = col0 + tx * 4 + j;
            if (r < M && c < N) v += sigm(acc[i][j] + bias[c]);
        }
        for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        if (tx == 0 && r < M) atomicAdd(out + r, v);
    }
}

void linear_sigmoid_sum_launch(const float *x, const float *w, const float *bias, float *out, int m, int n, int k) {
    if (m == 0) return;
    cudaMemsetAsync(out, 0, (size_t)m * sizeof(float));
    if (n == 0) return;
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    lss_reg_kernel<<<grid, 256>>>(x, w, bias, out, m, n, k);
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
    name="linear_sigmoid_sum_regtile_64x64",
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
