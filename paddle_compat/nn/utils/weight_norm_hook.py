"""``paddle.nn.utils.weight_norm_hook``: weight normalization's hook class and helpers."""

from __future__ import annotations

from ..._core.registry import call_op
from ..._core.tensor import Tensor
from ._weight_norm import WeightNorm, _norm_except_dim, remove_weight_norm, weight_norm

__all__ = ["WeightNorm", "l2_norm", "norm_except_dim", "remove_weight_norm", "weight_norm"]


def l2_norm(x: Tensor, axis: int, epsilon: float = 1e-12, name: str | None = None) -> Tensor:
    """``sqrt(sum(x * x, axis) + epsilon)``: the L2 norm along ``axis``, that axis removed."""
    return call_op("sqrt", call_op("sum", x * x, axis) + epsilon)


def norm_except_dim(p: Tensor, dim: int) -> Tensor:
    """The L2 norm of ``p`` over every axis but ``dim`` (a vector of ``p.shape[dim]``); over
    all axes (0-D) when ``dim`` is -1."""
    return _norm_except_dim(p, dim)
