import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """y = sigmoid(linear(x)).sum(dim=1): nn.Linear(1024, 1024) on a (4096, 1024) float32 batch, a sigmoid, and a row sum (a level-2-like chain ending in a reduction)."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.linear(x)).sum(dim=1)


batch = 4096
in_features = 1024
out_features = 1024


def get_inputs():
    return [torch.randn(batch, in_features)]


def get_init_inputs():
    return [in_features, out_features]
