"""``paddle.nn.utils.spectral_norm_hook``: spectral normalization's hook class and helpers."""

from __future__ import annotations

from ..._core.tensor import Tensor
from ._spectral_norm import SpectralNorm, spectral_norm

__all__ = ["SpectralNorm", "normal_", "spectral_norm"]


def normal_(x: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
    """Fill ``x`` in place with normal samples from Paddle's seeded stream; returns ``x``."""
    return x.normal_(mean, std)
