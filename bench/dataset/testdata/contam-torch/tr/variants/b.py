# A train task's copy of te/variants/a.py: every name changed, the layout
# too, the CUDA the same token stream. dataset check must find it.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = (
    "#include <torch/extension.h>\n"
    "__global__ void clamp0(const float *in, float *out, long len) {"
    " long j = blockIdx.x * (long)blockDim.x + threadIdx.x;"
    " if (j < len) out[j] = in[j] > 0.f ? in[j] : 0.f; }\n"
    "torch::Tensor run(torch::Tensor in) { auto out = torch::empty_like(in); long len = in.numel();"
    " clamp0<<<(len + 255) / 256, 256>>>(in.data_ptr<float>(), out.data_ptr<float>(), len); return out; }\n"
)

mod = load_inline(name="relu_b", cpp_sources="torch::Tensor run(torch::Tensor t);", cuda_sources=SRC, functions=["run"])


class ModelNew(nn.Module):
    def forward(self, x):
        return mod.run(x)
