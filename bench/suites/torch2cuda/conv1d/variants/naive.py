import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cuda_runtime.h>
#include <math.h>

// One output per thread: cin * k multiply-adds from global memory.
__global__ void conv1d_naive_kernel(const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y,
                                    int batch, int cin, int cout, int len, int k, int olen) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i >= (long)batch * cout * olen) return;
    int o = i % olen, co = (i / olen) % cout, b = i / ((long)olen * cout);
    float v = 0.f;
    for (int ci = 0; ci < cin; ci++) {
        const float *xp = x + ((long)b * cin + ci) * len + o;
        const float *wp = w + ((long)co * cin + ci) * k;
        for (int t = 0; t < k; t++) v += xp[t] * wp[t];
    }
    y[i] = v;
}

void conv1d_launch(const float *x, const float *w, float *y, int batch, int cin, int cout, int len, int ksize) {
    int olen = len - ksize + 1;
    long total = (long)batch * cout * olen;
    if (total <= 0) return;
    conv1d_naive_kernel<<<(unsigned)((total + 255) / 256), 256>>>(x, w, y, batch, cin, cout, len, ksize, olen);
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
    name="conv1d_naive",
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
