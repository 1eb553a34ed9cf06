"""``paddle.sparse.nn.functional``: activations of a sparse Tensor's stored values."""

from __future__ import annotations

from .._math import _map_values


def relu(x, name=None):
    """``max(x, 0)`` of the stored values."""
    from ...nn import functional as F

    return _map_values(x, F.relu, "relu")


def relu6(x, name=None):
    """``min(max(x, 0), 6)`` of the stored values."""
    from ...nn import functional as F

    return _map_values(x, F.relu6, "relu6")


def leaky_relu(x, negative_slope: float = 0.01, name=None):
    """``x if x >= 0 else negative_slope * x`` of the stored values."""
    from ...nn import functional as F

    return _map_values(x, lambda v: F.leaky_relu(v, negative_slope), "leaky_relu")


def softmax(x, axis: int = -1, name=None):
    """Softmax over the last axis among each row's stored values."""
    from .._manip import softmax as _softmax

    return _softmax(x, axis)
