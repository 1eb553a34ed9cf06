"""Window functions in ``paddle.*`` (hann_window, hamming_window, blackman_window,
bartlett_window, kaiser_window): 1-D Tensors computed on the host from static arguments."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core.dtype import DTypeLike
from .._core.registry import op
from .._core.tensor import Tensor


def _symmetric(kind: str, m: int, beta: float) -> np.ndarray:
    n = np.arange(m, dtype=np.float64)
    r = 2.0 * np.pi * n / (m - 1)
    if kind == "hann":
        return 0.5 - 0.5 * np.cos(r)
    if kind == "hamming":
        return 0.54 - 0.46 * np.cos(r)
    if kind == "blackman":
        return 0.42 - 0.5 * np.cos(r) + 0.08 * np.cos(2 * r)
    if kind == "bartlett":
        return 1.0 - np.abs(2.0 * n / (m - 1) - 1.0)
    return np.i0(beta * np.sqrt(1.0 - (2.0 * n / (m - 1) - 1.0) ** 2)) / np.i0(beta)


@op("_window", tensors=(), namespaces=(), method=None, differentiable=False)
def _window(kind, window_length, periodic, beta, dtype):
    name = f"{kind}_window"
    if not isinstance(window_length, int) or window_length < 0:
        raise ValueError(
            f"(InvalidArgument) {name}: window_length must be a non-negative int, "
            f"but got {window_length!r}."
        )
    dt = _dt.to_dtype(dtype)
    if not _dt.is_floating(dt):
        raise TypeError(
            f"(InvalidType) {name}: dtype must be a floating-point dtype, but got {dt.name}."
        )
    if window_length <= 1:
        w = np.ones((window_length,), np.float64)
    else:
        m = window_length + 1 if periodic else window_length
        w = _symmetric(kind, m, beta)[:window_length]
    return jnp.asarray(w.astype(dt.np))


def _public(kind, window_length, periodic, beta, dtype, requires_grad):
    out = _window(kind, window_length, periodic, beta, dtype)
    out.stop_gradient = not requires_grad
    return out


def _make(kind: str):
    def f(
        window_length: int,
        periodic: bool = True,
        *,
        dtype: DTypeLike = "float32",
        layout: None = None,
        device: str | None = None,
        pin_memory: bool = False,
        requires_grad: bool = False,
    ) -> Tensor:
        return _public(kind, window_length, periodic, 0.0, dtype, requires_grad)

    f.__doc__ = f"The {kind} window of ``window_length`` points (periodic: for spectral use)."
    return f


def _kaiser(
    window_length: int,
    periodic: bool = True,
    beta: float = 12.0,
    *,
    dtype: DTypeLike = "float32",
    layout: None = None,
    device: str | None = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """The Kaiser window with shape parameter ``beta``."""
    return _public("kaiser", window_length, periodic, float(beta), dtype, requires_grad)


_OPTS = dict(method=None, composite=True)

for _kind in ("hann", "hamming", "blackman", "bartlett"):
    op(f"{_kind}_window", **_OPTS)(_make(_kind))
op("kaiser_window", **_OPTS)(_kaiser)
