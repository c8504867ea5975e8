import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """y = relu(linear(x)): nn.Linear(1024, 2048) on a (4096, 1024) float32 batch, then ReLU (a level-2-like chain)."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.linear(x))


batch = 4096
in_features = 1024
out_features = 2048


def get_inputs():
    return [torch.randn(batch, in_features)]


def get_init_inputs():
    return [in_features, out_features]
