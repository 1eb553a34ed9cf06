"""Products in ``paddle.*``: matmul, mm, bmm, dot, outer/ger, inner, kron, einsum (Paddle's
matmul kernels take one dtype: no promotion between x and y)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._core import dtype as _dt
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor


# -- matmul ------------------------------------------------------------------------------------
def _same_dtype(name, x, y):
    """Paddle's matmul kernels take one dtype (no promotion): float32 @ float64 is an error."""
    if x.dtype != y.dtype:
        raise ValueError(
            f"(InvalidArgument) {name}: x and y must have the same dtype, but got "
            f"x: {_dt.to_dtype(x.dtype).name} and y: {_dt.to_dtype(y.dtype).name}."
        )


@op(
    "matmul",
    tensor_modules=("einsum", "linalg"),
    amp="white",
    tensors=("x", "y"),
    namespaces=("paddle", "paddle.linalg"),
)
def matmul(
    x: jax.Array,
    y: jax.Array,
    transpose_x: bool = False,
    transpose_y: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    """Batched matrix product with optional transposes of the last two dims."""
    _same_dtype("matmul", x, y)
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(
            f"(InvalidArgument) matmul: x and y must have at least 1 dimension, but received "
            f"x of shape {list(x.shape)} and y of shape {list(y.shape)} (use paddle.multiply "
            "for 0-D tensors)."
        )
    if transpose_x:
        x = jnp.swapaxes(x, -1, -2) if x.ndim > 1 else x
    if transpose_y:
        y = jnp.swapaxes(y, -1, -2) if y.ndim > 1 else y
    kx = x.shape[-1]
    ky = y.shape[0] if y.ndim == 1 else y.shape[-2]
    if kx != ky:
        raise ValueError(
            f"(InvalidArgument) matmul: the last dimension of x (shape {list(x.shape)}) must "
            f"equal the {'first' if y.ndim == 1 else 'second-to-last'} dimension of y "
            f"(shape {list(y.shape)}), but got {kx} != {ky}."
        )
    return jnp.matmul(x, y)


@op("mm", amp="white", tensors=("input", "mat2"))
def mm(input: jax.Array, mat2: jax.Array, name: str | None = None) -> jax.Array:  # noqa: A002
    _same_dtype("mm", input, mat2)
    return jnp.matmul(input, mat2)


@op("bmm", tensor_modules=("linalg",), tensors=("x", "y"))
def bmm(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    _same_dtype("bmm", x, y)
    if jnp.ndim(x) != 3 or jnp.ndim(y) != 3:
        raise ValueError(
            f"(InvalidArgument) bmm takes 3-D inputs, got {jnp.shape(x)} and {jnp.shape(y)}"
        )
    return jnp.matmul(x, y)


@op("dot", tensor_modules=("linalg",), tensors=("x", "y"), promote=("x", "y"))
def dot(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.sum(x * y, axis=-1)


@op("outer", extra_names=("ger",), tensors=("x", "y"), promote=("x", "y"), aliases={"other": None})
def outer(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.outer(x, y)


@op("inner", tensors=("x", "y"), promote=("x", "y"), aliases=NO_TORCH_KEYWORDS)
def inner(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.inner(x, y)


@op("kron", tensors=("x", "y"), promote=("x", "y"), aliases=NO_TORCH_KEYWORDS)
def kron(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.kron(x, y)


@op("einsum", tensor_modules=("einsum",), amp="white", tensors=("operands",), method=None)
def einsum(equation: str, *operands: jax.Array) -> jax.Array:
    return jnp.einsum(equation, *operands)
