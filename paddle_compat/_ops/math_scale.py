"""Paddle's ``scale`` kernel and the operations Paddle runs through it: ``paddle.scale``,
``neg`` (scale by -1) and a float or complex Tensor times a Python number (``x * 2``, ``2 * x``,
``x *= 2``; the op ``_mul_scalar``, beside ``multiply`` in math.py). It computes ``x * s +
bias`` with IEEE addition, so a +0.0 bias turns -0.0 into +0.0 (``-paddle.zeros([2])`` prints
``[0., 0.]``), and its gradient is ``scale`` again. XLA folds ``y + 0.0`` to ``y``;
``plus_zero`` keeps the addition."""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp

from .._core.dtype import is_inexact_np
from .._core.registry import NO_TORCH_KEYWORDS, op


def plus_zero(y: jax.Array) -> jax.Array:
    """``y + 0.0`` as IEEE computes it (-0.0 becomes +0.0, all else is unchanged; for a
    complex ``y`` in both parts). Done on the bits: XLA folds ``y + 0.0`` to ``y``, and
    XLA:CPU's code generator may drop a sign test on floats."""
    if jnp.issubdtype(y.dtype, jnp.complexfloating):
        return jax.lax.complex(_plus_zero(jnp.real(y)), _plus_zero(jnp.imag(y)))
    if not is_inexact_np(y.dtype):
        return y
    return _plus_zero(y)


@jax.custom_jvp
def _plus_zero(y):
    uint = jnp.dtype(f"uint{8 * y.dtype.itemsize}")
    bits = jax.lax.bitcast_convert_type(y, uint)
    negative_zero = jnp.asarray(1 << (8 * y.dtype.itemsize - 1), uint)
    return jax.lax.bitcast_convert_type(
        jnp.where(bits == negative_zero, 0, bits).astype(uint), y.dtype
    )


@_plus_zero.defjvp
def _plus_zero_jvp(primals, tangents):
    return _plus_zero(primals[0]), tangents[0]  # the identity, as ``y + 0.0``'s


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def scale_by(x: jax.Array, s: jax.Array, then_plus_zero: bool) -> jax.Array:
    """``x * s`` (``s`` 0-D, x's dtype), then ``+ 0.0`` when ``then_plus_zero``; the gradient
    of x is Paddle's: ``scale(g, s)``, so also ``+ 0.0``."""
    y = x * s
    return plus_zero(y) if then_plus_zero else y


def _scale_by_fwd(x, s, then_plus_zero):
    return scale_by(x, s, then_plus_zero), (x, s)


def _scale_by_bwd(then_plus_zero, res, g):
    x, s = res
    return plus_zero(g * s), jnp.sum(g * x).astype(s.dtype).reshape(s.shape)


scale_by.defvjp(_scale_by_fwd, _scale_by_bwd)


def negative(x: jax.Array) -> jax.Array:
    """Paddle's ``neg``: ``scale(x, -1.0)`` for floats and complex numbers (so ``-0.0`` and
    ``0.0`` both give ``0.0``)."""
    if not is_inexact_np(x.dtype):
        return jnp.negative(x)
    return scale_by(x, jnp.asarray(-1, x.dtype), True)


@op("scale", inplace="scale_", tensor_modules=("math",), aliases=NO_TORCH_KEYWORDS)
def scale(
    x: jax.Array,
    scale: float = 1.0,
    bias: float = 0.0,
    bias_after_scale: bool = True,
    act: str | None = None,
    name: str | None = None,
) -> jax.Array:
    """``scale * x + bias`` (or ``scale * (x + bias)``), keeping x's dtype."""
    s = jnp.asarray(scale, x.dtype)
    b = jnp.asarray(bias, x.dtype)
    if not is_inexact_np(x.dtype):
        return x * s + b if bias_after_scale else (x + b) * s
    plus_zero_bias = bias == 0 and math.copysign(1.0, bias) > 0
    if bias_after_scale:
        return scale_by(x, s, True) if plus_zero_bias else scale_by(x, s, False) + b
    return scale_by(plus_zero(x) if plus_zero_bias else x + b, s, False)
