"""Elementwise math: binary arithmetic with Paddle's promotion, unary functions (a table),
comparisons and logic, scale/clip, matmul."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp

from .._core import dtype as _dt
from .._core.registry import op


def _float_in(x):
    """Unary float functions on int/bool inputs compute in the default float dtype."""
    if not _dt.is_inexact_np(x.dtype):
        return x.astype(_dt.default_float().np)
    return x


# -- binary arithmetic ------------------------------------------------------------------------
_BIN = dict(tensors=("x", "y"), promote=("x", "y"))


@op("add", inplace="add_", **_BIN)
def add(x, y):
    return jnp.add(x, y)


@op("subtract", inplace="subtract_", extra_names=("sub",), **_BIN)
def subtract(x, y):
    return jnp.subtract(x, y)


@op("multiply", inplace="multiply_", extra_names=("mul",), **_BIN)
def multiply(x, y):
    if x.dtype == jnp.bool_:
        return jnp.logical_and(x, y)
    return jnp.multiply(x, y)


@op("divide", inplace="divide_", extra_names=("div",), **_BIN)
def divide(x, y):
    """True division; int inputs give the default float dtype."""
    if not _dt.is_inexact_np(x.dtype):
        f = _dt.default_float().np
        x, y = x.astype(f), y.astype(f)
    return jnp.divide(x, y)


@op("floor_divide", inplace="floor_divide_", **_BIN)
def floor_divide(x, y):
    return jnp.floor_divide(x, y)


@op("remainder", inplace="remainder_", extra_names=("mod", "floor_mod"), **_BIN)
def remainder(x, y):
    return jnp.remainder(x, y)


@op("pow", inplace="pow_", **_BIN)
def pow(x, y):  # noqa: A001 - Paddle's name
    return jnp.power(x, y)


@op("maximum", **_BIN)
def maximum(x, y):
    return jnp.maximum(x, y)


@op("minimum", **_BIN)
def minimum(x, y):
    return jnp.minimum(x, y)


@op("fmax", **_BIN)
def fmax(x, y):
    return jnp.fmax(x, y)


@op("fmin", **_BIN)
def fmin(x, y):
    return jnp.fmin(x, y)


@op("atan2", **_BIN)
def atan2(x, y):
    return jnp.arctan2(_float_in(x), _float_in(y))


@op("heaviside", **_BIN)
def heaviside(x, y):
    return jnp.heaviside(x, y)


# -- unary table: name -> (jax function, float-only?) -------------------------------------------
_UNARY = {
    "exp": (jnp.exp, True), "expm1": (jnp.expm1, True), "log": (jnp.log, True),
    "log2": (jnp.log2, True), "log10": (jnp.log10, True), "log1p": (jnp.log1p, True),
    "sqrt": (jnp.sqrt, True), "rsqrt": (jax.lax.rsqrt, True), "sin": (jnp.sin, True),
    "cos": (jnp.cos, True), "tan": (jnp.tan, True), "asin": (jnp.arcsin, True),
    "acos": (jnp.arccos, True), "atan": (jnp.arctan, True), "sinh": (jnp.sinh, True),
    "cosh": (jnp.cosh, True), "tanh": (jnp.tanh, True), "asinh": (jnp.arcsinh, True),
    "acosh": (jnp.arccosh, True), "atanh": (jnp.arctanh, True),
    "sigmoid": (jax.nn.sigmoid, True), "erf": (jsp.erf, True), "erfinv": (jsp.erfinv, True),
    "lgamma": (jsp.gammaln, True), "digamma": (jsp.digamma, True),
    "reciprocal": (jnp.reciprocal, True), "floor": (jnp.floor, False),
    "ceil": (jnp.ceil, False), "trunc": (jnp.trunc, False), "abs": (jnp.abs, False),
    "neg": (jnp.negative, False), "square": (jnp.square, False), "sign": (jnp.sign, False),
    "frac": (lambda x: x - jnp.trunc(x), True),
}
_UNARY_NO_INPLACE = {"neg", "sign", "frac", "erfinv", "digamma", "lgamma"}


def _make_unary(fn, float_only):
    if float_only:
        return lambda x: fn(_float_in(x))
    return lambda x: fn(x)


for _name, (_fn, _float_only) in _UNARY.items():
    _f = _make_unary(_fn, _float_only)
    _f.__doc__ = f"Elementwise ``{_name}``."
    op(_name, inplace=None if _name in _UNARY_NO_INPLACE else f"{_name}_")(_f)


@op("round", inplace="round_")
def round(x, decimals=0):  # noqa: A001
    """Round half to even (measured on Paddle 3.3.1: 0.5 -> 0, 1.5 -> 2)."""
    return jnp.round(x, decimals)


@op("logit")
def logit(x, eps=None):
    x = _float_in(x)
    if eps is not None:
        x = jnp.clip(x, eps, 1 - eps)
    return jnp.log(x / (1 - x))


@op("scale", inplace="scale_")
def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None):
    """``scale * x + bias`` (or ``scale * (x + bias)``), keeping x's dtype."""
    s = jnp.asarray(scale, x.dtype)
    b = jnp.asarray(bias, x.dtype)
    return x * s + b if bias_after_scale else (x + b) * s


@op("clip", inplace="clip_", tensors=("x", "min", "max"))
def clip(x, min=None, max=None):  # noqa: A002
    """Clamp to [min, max]; min/max may be numbers or Tensors, and keep x's dtype."""
    lo = None if min is None else jnp.asarray(min).astype(x.dtype)
    hi = None if max is None else jnp.asarray(max).astype(x.dtype)
    return jnp.clip(x, lo, hi)


@op("lerp", tensors=("x", "y", "weight"), promote=("x", "y", "weight"), inplace="lerp_")
def lerp(x, y, weight):
    return x + weight * (y - x)


@op("addmm", tensors=("input", "x", "y"), aliases={"input": "input"}, method=None)
def addmm(input, x, y, beta=1.0, alpha=1.0):  # noqa: A002
    return beta * input + alpha * jnp.matmul(x, y)


# -- comparisons and logic (no gradient) ------------------------------------------------------
_CMP = dict(tensors=("x", "y"), promote=("x", "y"), differentiable=False)


@op("equal", **_CMP)
def equal(x, y):
    return jnp.equal(x, y)


@op("not_equal", **_CMP)
def not_equal(x, y):
    return jnp.not_equal(x, y)


@op("less_than", extra_names=("less",), **_CMP)
def less_than(x, y):
    return jnp.less(x, y)


@op("less_equal", **_CMP)
def less_equal(x, y):
    return jnp.less_equal(x, y)


@op("greater_than", extra_names=("greater",), **_CMP)
def greater_than(x, y):
    return jnp.greater(x, y)


@op("greater_equal", **_CMP)
def greater_equal(x, y):
    return jnp.greater_equal(x, y)


@op("logical_and", tensors=("x", "y"), differentiable=False)
def logical_and(x, y):
    return jnp.logical_and(x, y)


@op("logical_or", tensors=("x", "y"), differentiable=False)
def logical_or(x, y):
    return jnp.logical_or(x, y)


@op("logical_xor", tensors=("x", "y"), differentiable=False)
def logical_xor(x, y):
    return jnp.logical_xor(x, y)


@op("logical_not", differentiable=False)
def logical_not(x):
    return jnp.logical_not(x)


@op("bitwise_and", differentiable=False, **{k: v for k, v in _BIN.items()})
def bitwise_and(x, y):
    return jnp.bitwise_and(x, y)


@op("bitwise_or", differentiable=False, **_BIN)
def bitwise_or(x, y):
    return jnp.bitwise_or(x, y)


@op("bitwise_xor", differentiable=False, **_BIN)
def bitwise_xor(x, y):
    return jnp.bitwise_xor(x, y)


@op("bitwise_not", differentiable=False)
def bitwise_not(x):
    return jnp.logical_not(x) if x.dtype == jnp.bool_ else jnp.bitwise_not(x)


@op("bitwise_left_shift", differentiable=False, **_BIN)
def bitwise_left_shift(x, y, is_arithmetic=True):
    return jnp.left_shift(x, y)


@op("bitwise_right_shift", differentiable=False, **_BIN)
def bitwise_right_shift(x, y, is_arithmetic=True):
    if is_arithmetic:
        return jnp.right_shift(x, y)
    x, y = jnp.broadcast_arrays(x, jnp.asarray(y, jnp.result_type(x)))
    return jax.lax.shift_right_logical(x, y)


@op("isnan", differentiable=False)
def isnan(x):
    return jnp.isnan(x)


@op("isinf", differentiable=False)
def isinf(x):
    return jnp.isinf(x)


@op("isfinite", differentiable=False)
def isfinite(x):
    return jnp.isfinite(x)


@op("allclose", tensors=("x", "y"), differentiable=False)
def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    return jnp.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


@op("isclose", tensors=("x", "y"), differentiable=False)
def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    return jnp.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


@op("equal_all", tensors=("x", "y"), differentiable=False)
def equal_all(x, y):
    return jnp.all(x == y) if x.shape == y.shape else jnp.asarray(False)


# -- matmul ------------------------------------------------------------------------------------
def _same_dtype(name, x, y):
    """Paddle's matmul kernels take one dtype (no promotion): float32 @ float64 is an error."""
    if x.dtype != y.dtype:
        raise ValueError(
            f"(InvalidArgument) {name}: x and y must have the same dtype, but got "
            f"x: {_dt.to_dtype(x.dtype).name} and y: {_dt.to_dtype(y.dtype).name}."
        )


@op("matmul", tensors=("x", "y"))
def matmul(x, y, transpose_x=False, transpose_y=False):
    """Batched matrix product with optional transposes of the last two dims."""
    _same_dtype("matmul", x, y)
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


@op("mm", tensors=("input", "mat2"))
def mm(input, mat2):  # noqa: A002
    _same_dtype("mm", input, mat2)
    return jnp.matmul(input, mat2)


@op("bmm", tensors=("x", "y"))
def bmm(x, y):
    _same_dtype("bmm", x, y)
    if jnp.ndim(x) != 3 or jnp.ndim(y) != 3:
        raise ValueError(f"(InvalidArgument) bmm takes 3-D inputs, got {jnp.shape(x)} and "
                         f"{jnp.shape(y)}")
    return jnp.matmul(x, y)


@op("dot", tensors=("x", "y"), promote=("x", "y"))
def dot(x, y):
    return jnp.sum(x * y, axis=-1)


@op("outer", tensors=("x", "y"), promote=("x", "y"))
def outer(x, y):
    return jnp.outer(x, y)


@op("inner", tensors=("x", "y"), promote=("x", "y"))
def inner(x, y):
    return jnp.inner(x, y)


@op("kron", tensors=("x", "y"), promote=("x", "y"))
def kron(x, y):
    return jnp.kron(x, y)


@op("einsum", tensors=("operands",), method=None)
def einsum(equation, *operands):
    return jnp.einsum(equation, *operands)
