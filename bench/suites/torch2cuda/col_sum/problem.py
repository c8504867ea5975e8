import torch
import torch.nn as nn
import torch.nn.functional as F

# Each result sums 16384 N(0, 1) terms (std 128): the summation order alone
# moves a result by up to 3e-3 (measured on the H200: a thread summing its
# column in order), which the float32 default's atol of 1e-4 refuses for
# results near zero. 5e-3 is 4e-5 of the terms' scale.
# cudaperf: tolerance float32=1e-4,5e-3


class Model(nn.Module):
    """y = x.sum(dim=0): the sum of each column of a (16384, 4096) float32 matrix (a reduction along the slow axis)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.sum(dim=0)


rows = 16384
cols = 4096


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
