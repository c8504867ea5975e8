import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """C = A @ B, float32, (2048, 1024) x (1024, 2048); A is scaled by 1/32 so C is about unit size (the 1e-4 tolerance then admits any summation order)."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, b)


m = 2048
k = 1024
n = 2048


def get_inputs():
    return [torch.randn(m, k) / 32, torch.randn(k, n)]


def get_init_inputs():
    return []
