import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

#define TL 256
// A block per (batch, 256 output positions): every input channel's
// 256 + k - 1 values and the whole filter bank go to shared memory once,
// then each thread computes its position for every output channel.
__global__ void conv1d_tile_kernel(const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y,
                                   int cin, int cout, int len, int k, int olen) {
    extern __shared__ float sm[];
    float *xs = sm;                          // [cin][TL + k - 1]
    float *ws = sm + (long)cin * (TL + k - 1);  // [cout][cin][k]
    int b = blockIdx.y;
    int o0 = blockIdx.x * TL;
    int width = TL + k - 1;
    for (int i = threadIdx.x; i < cin * width; i += blockDim.x) {
        int ci = i / width, p = i % width;
        int g = o0 + p;
        xs[i] = g < len ? x[((long)b * cin + ci) * len + g] : 0.f;
    }
    for (int i = threadIdx.x; i < cout * cin * k; i += blockDim.x) ws[i] = w[i];
    __syncthreads();
    int o = o0 + threadIdx.x;
    if (o >= olen) return;
    for (int co = 0; co < cout; co++) {
        float v = 0.f;
        for (int ci = 0; ci < cin; ci++)
            for (int t = 0; t < k; t++) v += xs[ci * width + threadIdx.x + t] * ws[(co * cin + ci) * k + t];
        y[((long)b * cout + co) * olen + o] = v;
    }
}

void conv1d_launch(const float *x, const float *w, float *y, int batch, int cin, int cout, int len, int ksize) {
    int olen = len - ksize + 1;
    if (olen <= 0 || batch == 0 || cout == 0) return;
    size_t smem = ((size_t)cin * (TL + ksize - 1) + (size_t)cout * cin * ksize) * sizeof(float);
    if (smem > 48 * 1024) cudaFuncSetAttribute(conv1d_tile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    dim3 grid((olen + TL - 1) / TL, batch);
    conv1d_tile_kernel<<<grid, TL, smem>>>(x, w, y, cin, cout, len, ksize, olen);
}
"""

cpp_source = r"""
#include <torch/extension.h>

void conv1d_launch(const float *x, const float *w, float *y, int batch, int cin, int cout, int len, int ksize);

torch::Tensor conv1d_cuda(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.dim() == 3, "conv1d_cuda: x: want a (batch, cin, len) float32 CUDA tensor");
    TORCH_CHECK(w.dim() == 3 && w.size(1) == x.size(1) && w.size(2) <= x.size(2), "conv1d_cuda: weight: want (cout, cin, k) matching x");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    int k = (int)wc.size(2);
    auto y = torch::empty({xc.size(0), wc.size(0), xc.size(2) - k + 1}, xc.options());
    conv1d_launch(xc.data_ptr<float>(), wc.data_ptr<float>(), y.data_ptr<float>(), (int)xc.size(0), (int)xc.size(1), (int)wc.size(0), (int)xc.size(2), k);
    return y;
}
"""

# The .cu holds only kernels and plain-pointer launchers (no torch headers,
# so nvcc compiles it in seconds); the torch wrapper is C++.
ext = load_inline(
    name="conv1d_smem_tile",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=['conv1d_cuda'],
    extra_cuda_cflags=["-O3"],
    no_implicit_headers=True,
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, cin, cout, ksize):
        super().__init__()
        self.conv = nn.Conv1d(cin, cout, ksize, bias=False)

    def forward(self, x):
        return ext.conv1d_cuda(x, self.conv.weight)
