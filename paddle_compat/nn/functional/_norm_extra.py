"""paddle.nn.functional.rms_norm (Paddle 3.3.1 ships it for GPU only; the math follows its
documentation: out = x / sqrt(mean(x^2) + eps) * weight over the trailing normalized_shape)."""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp

from ..._core import dtype as _dt
from ..._core.registry import op

_F = dict(namespaces=("paddle.nn.functional",), method=None)


@op("rms_norm", tensors=("input", "weight"), **_F)
def rms_norm(
    input: jax.Array,  # noqa: A002
    normalized_shape: Sequence[int] | int,
    weight: jax.Array | None = None,
    eps: float = 1e-05,
    name: str | None = None,
) -> tuple[jax.Array, jax.Array]:
    """Root-mean-square layer normalization over the trailing ``normalized_shape`` axes.
    Returns (out, invvar) with invvar = 1 / sqrt(mean(x^2) + eps) of shape input.shape[:-k]."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(shape)
    if k == 0 or k > input.ndim or tuple(input.shape[-k:]) != tuple(int(s) for s in shape):
        raise ValueError(
            f"(InvalidArgument) normalized_shape {list(shape)} must match the trailing "
            f"dimensions of the input of shape {list(input.shape)}"
        )
    if weight is not None and tuple(weight.shape) != shape:
        raise ValueError(
            f"(InvalidArgument) weight of shape {list(weight.shape)} must have the "
            f"normalized_shape {list(shape)}"
        )
    axes = tuple(range(input.ndim - k, input.ndim))
    xf = _dt.half_as_float32(input)
    inv = jax.lax.rsqrt(jnp.mean(xf * xf, axis=axes, keepdims=True) + eps)
    out = (xf * inv).astype(input.dtype)
    if weight is not None:
        out = out * weight.astype(input.dtype)
    return out, jnp.reshape(inv, input.shape[: input.ndim - k])
