"""``paddle.nn.init``: torch-style in-place initializer functions. Each builds the matching
``paddle.nn.initializer`` class and applies it to ``tensor`` (a Parameter or a plain Tensor),
drawing from the same host random stream; as in Paddle they return None and leave the
tensor's inplace version unchanged."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor, to_device
from .initializer import (
    Constant,
    Dirac,
    KaimingNormal,
    KaimingUniform,
    Normal,
    Orthogonal,
    TruncatedNormal,
    Uniform,
    XavierNormal,
    XavierUniform,
    calculate_gain,
)
from .initializer._initializers import _compute_fans

__all__ = [
    "Constant",
    "Dirac",
    "KaimingNormal",
    "KaimingUniform",
    "Normal",
    "Orthogonal",
    "TruncatedNormal",
    "Uniform",
    "XavierNormal",
    "XavierUniform",
    "calculate_gain",
    "constant_",
    "dirac_",
    "eye_",
    "kaiming_normal_",
    "kaiming_uniform_",
    "normal_",
    "ones_",
    "orthogonal_",
    "trunc_normal_",
    "uniform_",
    "xavier_normal_",
    "xavier_uniform_",
    "zeros_",
]


def _calculate_fan_in_and_fan_out(var: Tensor) -> tuple[int, int]:
    """(fan_in, fan_out) by Paddle's rule: [in, out] for 2-D, [out, in, *k] for more."""
    return _compute_fans(var.shape)


def kaiming_uniform_(
    tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu"
) -> None:
    """Fill ``tensor`` in place from He uniform (``a``: the leaky_relu slope)."""
    return KaimingUniform(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def kaiming_normal_(
    tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu"
) -> None:
    """Fill ``tensor`` in place from He normal (``a``: the leaky_relu slope)."""
    return KaimingNormal(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def xavier_uniform_(
    tensor: Tensor, gain: float = 1.0, fan_in: float | None = None, fan_out: float | None = None
) -> None:
    """Fill ``tensor`` in place from Glorot uniform."""
    return XavierUniform(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def xavier_normal_(
    tensor: Tensor, gain: float = 1.0, fan_in: float | None = None, fan_out: float | None = None
) -> None:
    """Fill ``tensor`` in place from Glorot normal."""
    return XavierNormal(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0) -> None:
    """Fill ``tensor`` in place from U[a, b)."""
    return Uniform(low=a, high=b)(tensor)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0) -> None:
    """Fill ``tensor`` in place from N(mean, std**2)."""
    return Normal(mean=mean, std=std)(tensor)


def trunc_normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0
) -> None:
    """Fill ``tensor`` in place from N(mean, std**2) truncated to [a, b]."""
    return TruncatedNormal(mean=mean, std=std, a=a, b=b)(tensor)


def constant_(tensor: Tensor, val: float) -> None:
    """Fill ``tensor`` in place with ``val``."""
    return Constant(value=val)(tensor)


def ones_(tensor: Tensor) -> None:
    """Fill ``tensor`` in place with ones."""
    return Constant(value=1.0)(tensor)


def zeros_(tensor: Tensor) -> None:
    """Fill ``tensor`` in place with zeros."""
    return Constant(value=0.0)(tensor)


def dirac_(tensor: Tensor, groups: int = 1) -> None:
    """Fill a 3-D/4-D/5-D ``tensor`` in place with the Dirac delta (identity conv kernel)."""
    return Dirac(groups=groups)(tensor)


def eye_(tensor: Tensor) -> None:
    """Fill a 2-D ``tensor`` in place with the identity matrix."""
    if len(tensor.shape) != 2:
        raise AssertionError(f"Only support 2 dimensional tensor, but got {len(tensor.shape)}.")
    rows, cols = tensor.shape
    version = tensor._version
    tensor._set_value(to_device(np.eye(rows, cols, dtype=tensor.dtype.np)))
    tensor._version = version


def orthogonal_(tensor: Tensor, gain: float = 1) -> None:
    """Fill ``tensor`` in place with a (semi-)orthogonal matrix scaled by ``gain``."""
    return Orthogonal(gain=gain)(tensor)
