import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """y = layer_norm(x * scale + residual) over the last axis, learned weight and bias: a level-2-like chain on (16384, 2048) float32."""

    def __init__(self, cols, scale, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cols))
        self.bias = nn.Parameter(torch.randn(cols))
        self.scale = scale
        self.eps = eps

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        h = x * self.scale + residual
        return F.layer_norm(h, (h.shape[-1],), self.weight, self.bias, self.eps)


rows = 16384
cols = 2048
scale = 0.5
eps = 1e-5


def get_inputs():
    return [torch.randn(rows, cols), torch.randn(rows, cols)]


def get_init_inputs():
    return [cols, scale, eps]
