"""``paddle.incubate`` ops: ``identity_loss`` and the fused masked softmaxes
``softmax_mask_fuse`` / ``softmax_mask_fuse_upper_triangle`` (XLA fuses the mask, the softmax
and their gradient on every device)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._core.op_errors import check_dtype, leaf_dtype
from .._core.registry import op

_REDUCTIONS = {"sum": 0, "mean": 1, "none": 2}


def _reduction_code(reduction) -> int:
    if isinstance(reduction, str):
        code = _REDUCTIONS.get(reduction.lower())
        if code is None:
            raise TypeError("Unsupported reduction type.")
        return code
    return int(reduction)


def _check_identity_loss(v: dict) -> None:
    code = _reduction_code(v["reduction"])
    if code not in (0, 1, 2):
        raise ValueError(f"(InvalidArgument) reduction should be 0, 1 and 2. But get {code}")
    check_dtype(v["x"], ("float32", "float64"), "identity_loss")


@op("identity_loss", namespaces=("paddle.incubate",), method=None, check=_check_identity_loss)
def identity_loss(x: jax.Array, reduction: str | int = "none") -> jax.Array:
    """Mark ``x`` as the loss (for IPU graphs): its sum (``"sum"``/0), mean (``"mean"``/1)
    or ``x`` itself (``"none"``/2)."""
    code = _reduction_code(reduction)
    if code == 0:
        return jnp.sum(x)
    if code == 1:
        return jnp.mean(x)
    return x


def _shape(t) -> list[int]:
    return [int(s) for s in t.shape]


def _check_softmax_mask(v: dict) -> None:
    x, mask = v["x"], v["mask"]
    check_dtype(x, ("float32", "float64"), "fused_softmax_mask")
    xs, ms = _shape(x), _shape(mask)
    if 0 in ms:  # Paddle adds an empty mask to x
        try:
            np.broadcast_shapes(tuple(xs), tuple(ms))
        except ValueError:
            raise ValueError(
                "(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast "
                f"together with the shape of X = {xs} and the shape of Y = {ms}."
            ) from None
        return
    for arg, s in (("x", xs), ("mask", ms)):
        if len(s) != 4:
            label = "X" if arg == "x" else "mask"
            raise ValueError(
                f"(InvalidArgument) Input {arg} must be in 4D dimension but received the "
                f"dimension of {label} is {len(s)}"
            )
    for i in (0, 2, 3):
        if xs[i] != ms[i]:
            raise ValueError(
                f"(InvalidArgument) Input x's {i}th dim should be equal with input mask's {i}th "
                f"dim but received the {i}th dimension of x and mask are not equal the {i}th dim "
                f"of x is {xs[i]}, while the {i}th dim of mask is {ms[i]}."
            )
    if ms[1] != 1:
        raise ValueError(
            "(InvalidArgument) Input mask's second dim must be 1 received the second dimension "
            f"of mask is {ms[1]}"
        )
    if leaf_dtype(mask) != leaf_dtype(x):
        raise ValueError(
            f"(InvalidArgument) softmax_mask_fuse: mask must have the dtype of x "
            f"({leaf_dtype(x).name}), but received {leaf_dtype(mask).name}."
        )


@op(
    "softmax_mask_fuse",
    tensors=("x", "mask"),
    namespaces=("paddle.incubate",),
    method=None,
    check=_check_softmax_mask,
)
def softmax_mask_fuse(x: jax.Array, mask: jax.Array, name: str | None = None) -> jax.Array:
    """``softmax(x + mask, axis=-1)`` for attention scores ``x`` [batch, heads, q, k] and an
    additive ``mask`` [batch, 1, q, k]."""
    if mask.size == 0:
        return x + mask
    return jax.nn.softmax(x + mask, axis=-1)


def _check_upper_triangle(v: dict) -> None:
    x = v["x"]
    check_dtype(
        x, ("float16", "bfloat16", "float32", "float64"), "fused_softmax_mask_upper_triangle"
    )
    if len(x.shape) != 4:
        raise ValueError(
            "(InvalidArgument) Input x must be in 4D dimension but received the dimension of X "
            f"is {len(x.shape)}"
        )


@op(
    "softmax_mask_fuse_upper_triangle",
    namespaces=("paddle.incubate",),
    method=None,
    check=_check_upper_triangle,
)
def softmax_mask_fuse_upper_triangle(x: jax.Array) -> jax.Array:
    """Causal softmax of attention scores ``x`` [batch, heads, q, k]: row ``i`` is a softmax
    over columns ``0..i``; the columns above the diagonal are 0. (Paddle runs it on GPU only:
    its CPU build raises NotImplementedError; here it runs on every device.)"""
    q, k = x.shape[-2], x.shape[-1]
    keep = jnp.arange(k)[None, :] <= jnp.arange(q)[:, None]
    low = jnp.asarray(-jnp.inf, x.dtype)
    return jnp.where(keep, jax.nn.softmax(jnp.where(keep, x, low), axis=-1), 0).astype(x.dtype)
