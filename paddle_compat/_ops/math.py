"""Elementwise math: binary arithmetic with Paddle's promotion, unary functions (a table),
comparisons and logic, scale/clip, matmul."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np

from .._core import dtype as _dt
from .._core import runtime_checks
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor, constant_array
from .math_scale import negative, scale_by


def _float_in(x):
    """Unary float functions on int/bool inputs compute in the default float dtype."""
    if not _dt.is_inexact_np(x.dtype):
        return x.astype(_dt.default_float().np)
    return x


# -- binary arithmetic ------------------------------------------------------------------------
_BIN = dict(tensors=("x", "y"), promote=("x", "y"))


_ARITH = dict(promote_0d="keep_nd", **_BIN)  # a 0-D Tensor operand may mix kinds (Paddle)


@op("add", inplace="add_", **_ARITH)
def add(
    x: jax.Array,
    y: jax.Array,
    name: str | None = None,
    *,
    alpha: float = 1,
    out: Tensor | None = None,
) -> jax.Array:
    """``x + alpha * y`` (a float ``alpha`` on integer Tensors is Paddle's TypeError)."""
    return jnp.add(x, _times_alpha(x, y, alpha))


@op(
    "subtract",
    method_aliases=("sub",),
    inplace_aliases=("sub_",),
    inplace="subtract_",
    inplace_keywords=True,
    extra_names=("sub",),
    **_ARITH,
)
def subtract(
    x: jax.Array,
    y: jax.Array,
    name: str | None = None,
    *,
    alpha: float = 1,
    out: Tensor | None = None,
) -> jax.Array:
    """``x - alpha * y`` (a float ``alpha`` on integer Tensors is Paddle's TypeError)."""
    return jnp.subtract(x, _times_alpha(x, y, alpha))


def _times_alpha(x, y, alpha):
    """``alpha * y`` of add/subtract (``y`` itself for the default 1)."""
    if alpha == 1:
        return y
    if isinstance(alpha, float) and not _dt.is_inexact_np(y.dtype):
        raise TypeError(
            "(InvalidType) Type promotion only support calculations between floating-point "
            "numbers and between complex and real numbers. But got different data type x: "
            f"{_dt.to_dtype(x.dtype).name}, y: float32."
        )
    return y * jnp.asarray(alpha, y.dtype)


@op(
    "multiply",
    tensor_modules=("einsum", "math"),
    method_aliases=("mul",),
    inplace_aliases=("mul_",),
    inplace="multiply_",
    inplace_keywords=True,
    extra_names=("mul",),
    **_ARITH,
)
def multiply(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    if x.dtype == jnp.bool_:
        return jnp.logical_and(x, y)
    return jnp.multiply(x, y)


@op("_mul_scalar", kernel="scale", namespaces=(), method=None, **_ARITH)
def mul_scalar(x: jax.Array, y: jax.Array) -> jax.Array:
    """A float or complex Tensor times a Python number (``x * 2``), which Paddle runs as
    ``scale(x, y)`` (math_scale.py)."""
    if not _dt.is_inexact_np(x.dtype) or x.dtype != y.dtype:
        return jnp.multiply(x, y)
    return scale_by(x, y, True)


def _check_divide(v):
    """Paddle's ``rounding_mode`` check, and its integer-division-by-zero error when rounding."""
    mode = v["rounding_mode"]
    if mode is None:
        return
    if mode not in ("trunc", "floor"):
        raise ValueError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found {mode}."
        )
    _check_int_divisor(v)


@op(
    "divide",
    inplace="divide_",
    inplace_keywords=True,
    extra_names=("div",),
    method_aliases=("div",),
    inplace_aliases=("div_",),
    check=_check_divide,
    **_ARITH,
)
def divide(
    x: jax.Array,
    y: jax.Array,
    name: str | None = None,
    *,
    rounding_mode: str | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """True division (int inputs give the default float dtype); ``rounding_mode`` "trunc" or
    "floor" rounds the quotient toward zero or down, keeping integer dtypes."""
    if rounding_mode is not None and not _dt.is_inexact_np(x.dtype):
        if rounding_mode == "floor":
            return jnp.floor_divide(x, y)
        x, y = jnp.broadcast_arrays(x, y)
        return jax.lax.div(x, y)  # C division: toward zero
    if not _dt.is_inexact_np(x.dtype):
        f = _dt.default_float().np
        x, y = x.astype(f), y.astype(f)
    q = jnp.divide(x, y)
    if rounding_mode == "trunc":
        return jnp.trunc(q)
    if rounding_mode == "floor":
        return jnp.floor(q)
    return q


@op("true_divide", tensors=("input", "other"), promote=("input", "other"), promote_0d="keep_nd")
def true_divide(input: jax.Array, other: jax.Array, *, out: Tensor | None = None) -> jax.Array:  # noqa: A002
    """``input / other`` (int inputs give the default float dtype)."""
    if not _dt.is_inexact_np(input.dtype):
        f = _dt.default_float().np
        input, other = input.astype(f), other.astype(f)  # noqa: A001
    return jnp.divide(input, other)


def _is_int_operand(v) -> bool:
    if isinstance(v, bool | int | np.integer):
        return True
    d = getattr(v, "dtype", None)
    return d is not None and (_dt.is_integer(d) or _dt.to_dtype(d) is _dt.bool_)


def _check_int_divisor(v):
    """Paddle's integer floor/trunc divide and remainder raise on a zero divisor."""
    x, y = v["x"], v["y"]
    if _is_int_operand(x) and _is_int_operand(y):
        runtime_checks.check_nonzero(
            y,
            runtime_checks.EnforceNotMet,
            "(InvalidArgument) Integer division by zero encountered in (floor/trunc) divide. "
            "Please check the input value.",
        )


@op(
    "floor_divide",
    inplace="floor_divide_",
    check=_check_int_divisor,
    promote_0d="kind",
    **_BIN,
)
def floor_divide(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.floor_divide(x, y)


@op(
    "remainder",
    method_aliases=("mod", "floor_mod"),
    inplace_aliases=("mod_", "floor_mod_"),
    inplace="remainder_",
    extra_names=("mod", "floor_mod"),
    check=_check_int_divisor,
    **_ARITH,
)
def remainder(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.remainder(x, y)


@op("pow", amp="black", inplace="pow_", aliases={"exponent": "y", "other": None}, **_ARITH)
def pow(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:  # noqa: A001 - Paddle's name
    return jnp.power(x, y)


@op("maximum", **_BIN)
def maximum(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.maximum(x, y)


@op("minimum", **_BIN)
def minimum(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.minimum(x, y)


@op("fmax", **_BIN, aliases=NO_TORCH_KEYWORDS)
def fmax(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.fmax(x, y)


@op("fmin", **_BIN, aliases=NO_TORCH_KEYWORDS)
def fmin(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.fmin(x, y)


@op("atan2", **_BIN, aliases=NO_TORCH_KEYWORDS)
def atan2(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.arctan2(_float_in(x), _float_in(y))


@op("heaviside", **_BIN, aliases=NO_TORCH_KEYWORDS)
def heaviside(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.heaviside(x, y)


# -- unary table: a row per op, its traits as data for the one decorator ------------------------
# float: ints compute in the default float dtype; amp: Paddle's AMP O1 list (default promote);
# F: also in paddle.nn.functional; every op has an in-place variant ``<name>_`` unless noted.
_BLACK, _F = {"amp": "black"}, {"namespaces": ("paddle", "paddle.nn.functional")}


@jax.custom_jvp
def _abs_float(x):
    return jnp.abs(x)


@_abs_float.defjvp
def _abs_float_jvp(primals, tangents):
    """Paddle's abs gradient selects ``g``, ``-g`` or 0 by the sign of x: 0 at 0 whatever g is
    (JAX's is ``g`` there)."""
    (x,), (t,) = primals, tangents
    zero = jnp.zeros_like(t)
    return jnp.abs(x), jnp.where(x > 0, t, jnp.where(x < 0, -t, zero))


def _in_float32(fn):
    """``fn`` computed in float32 for float16/bfloat16 inputs and rounded once, as Paddle's
    kernel does (XLA's half-precision expm1 differs from it in the last bit)."""

    return lambda x: fn(_dt.half_as_float32(x)).astype(x.dtype)


def _digamma(x):
    """digamma with Paddle's values at zero: -inf at +0 and +inf at -0 (the limits from each
    side; JAX gives nan there)."""
    return jnp.where(x == 0, -1 / x, jsp.digamma(x))


# O: Paddle's function takes the keyword ``out`` (the others only ``name``).
_O = {"out": True}
# P: Paddle's function refuses the PyTorch-style keyword ``input=``
_P = {"aliases": NO_TORCH_KEYWORDS}
_UNARY = {
    "exp": (jnp.exp, True, {**_BLACK, **_O}),
    "expm1": (_in_float32(jnp.expm1), True, {**_BLACK, **_O}),
    "log": (jnp.log, True, {**_BLACK, **_O}),
    "log2": (jnp.log2, True, {**_BLACK, **_O}),
    "log10": (jnp.log10, True, {**_BLACK, **_O}),
    "log1p": (jnp.log1p, True, _O),
    "sqrt": (jnp.sqrt, True, _O),
    "rsqrt": (jax.lax.rsqrt, True, {**_BLACK, **_O}),
    "sin": (jnp.sin, True, _O),
    "cos": (jnp.cos, True, _O),
    "tan": (jnp.tan, True, {**_BLACK, **_P}),
    "asin": (jnp.arcsin, True, _BLACK),
    "acos": (jnp.arccos, True, {**_BLACK, **_O}),
    "atan": (jnp.arctan, True, _P),
    "sinh": (jnp.sinh, True, {**_BLACK, **_O}),
    "cosh": (jnp.cosh, True, {**_BLACK, **_O}),
    "tanh": (jnp.tanh, True, {**_F, **_O}),
    "asinh": (jnp.arcsinh, True, _P),
    "acosh": (jnp.arccosh, True, _O),
    "atanh": (jnp.arctanh, True, {**_BLACK, **_O}),
    "sigmoid": (jax.nn.sigmoid, True, {**_F, **_O}),
    "erf": (jsp.erf, True, _P),
    "erfinv": (jsp.erfinv, True, {**_BLACK, **_P}),
    "lgamma": (jsp.gammaln, True, _P),
    "digamma": (_digamma, True, _P),
    "reciprocal": (jnp.reciprocal, True, {**_BLACK, **_P}),
    "floor": (jnp.floor, False, _O),
    "ceil": (jnp.ceil, False, _O),
    "trunc": (jnp.trunc, False, {"input": True}),
    "abs": (
        lambda x: _abs_float(x) if jnp.issubdtype(x.dtype, jnp.floating) else jnp.abs(x),
        False,
        _O,
    ),
    "neg": (negative, False, {"kernel": "scale", **_P}),  # Paddle runs scale(x, -1)
    "square": (jnp.square, False, {**_BLACK, **_P}),
    "sign": (jnp.sign, False, {"inplace": None, **_O}),
    "frac": (lambda x: x - jnp.trunc(x), True, _O),
}


def _make_unary(fn, float_only, out=False, input=False):  # noqa: A002
    """The op function of a table row, with Paddle's signature: ``(x, name=None)``, plus the
    keyword ``out`` where Paddle's has it; ``input`` names the tensor ``input`` (``trunc``)."""
    if input:

        def unary(input: jax.Array, name: str | None = None) -> jax.Array:  # noqa: A002
            return fn(_float_in(input) if float_only else input)

    elif out:

        def unary(x: jax.Array, name: str | None = None, *, out: Tensor | None = None) -> jax.Array:
            return fn(_float_in(x) if float_only else x)

    else:

        def unary(x: jax.Array, name: str | None = None) -> jax.Array:
            return fn(_float_in(x) if float_only else x)

    return unary


# Paddle exposes these in paddle.tensor.ops as well as paddle.tensor.math
_IN_OPS = {
    "exp",
    "expm1",
    "sqrt",
    "rsqrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
    "sigmoid",
    "erf",
    "reciprocal",
    "floor",
    "ceil",
    "abs",
    "square",
}
for _name, (_fn, _float_only, _traits) in _UNARY.items():
    _traits = dict(_traits)
    _f = _make_unary(_fn, _float_only, _traits.pop("out", False), _traits.pop("input", False))
    _f.__doc__ = f"Elementwise ``{_name}``."
    _tm = ("math", "ops") if _name in _IN_OPS else ("math",)
    op(_name, **{"inplace": f"{_name}_", "tensor_modules": _tm, **_traits})(_f)


@op("round", tensor_modules=("math", "ops"), inplace="round_")
def round(
    x: jax.Array, decimals: int = 0, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:  # noqa: A001
    """Round half to even (measured on Paddle 3.3.1: 0.5 -> 0, 1.5 -> 2)."""
    return jnp.round(x, decimals)


@op("logit", inplace="logit_", aliases=NO_TORCH_KEYWORDS)
def logit(x: jax.Array, eps: float | None = None, name: str | None = None) -> jax.Array:
    x = _float_in(x)
    if eps is not None:
        x = jnp.clip(x, eps, 1 - eps)
    return jnp.log(x / (1 - x))


@op("_clip", tensors=("x", "min", "max"), namespaces=(), method=None)
def _clip(x: jax.Array, min: jax.Array | None, max: jax.Array | None) -> jax.Array:  # noqa: A002
    lo = None if min is None else min.astype(x.dtype)
    hi = None if max is None else max.astype(x.dtype)
    return jnp.clip(x, lo, hi)


def _clip_bound(v, x: Tensor, what: str):
    """A clip bound as a one-element Tensor: a Python number in ``x``'s dtype (exactly, also
    for float64), a Tensor as given (Paddle reads it as a scalar)."""
    if v is None or isinstance(v, Tensor) and v.size == 1:
        return v
    if isinstance(v, Tensor):
        raise ValueError(
            f"(InvalidArgument) The Scalar only supports Tensor with 1 element, but now Tensor "
            f"has `{v.size}` elements (clip's '{what}')"
        )
    if isinstance(v, np.ndarray | np.generic):
        v = v.item()
    if not isinstance(v, int | float):
        raise TypeError(
            f"clip(): '{what}' must be a number or a Tensor, but got {type(v).__name__}"
        )
    return Tensor(constant_array((), v, x._val.dtype))


@op(
    "clip",
    extra_names=("clamp",),
    method_aliases=("clamp",),
    inplace_aliases=("clamp_",),
    inplace="clip_",
    tensors=("x", "min", "max"),
    composite=True,
)
def clip(
    x: Tensor,
    min: float | Tensor | None = None,
    max: float | Tensor | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:  # noqa: A002
    """Clamp to [min, max]; the result keeps x's dtype (Python float bounds make an integer
    ``x`` float32, as in Paddle)."""
    if isinstance(min, float) or isinstance(max, float):
        if _dt.is_integer(x.dtype) or x.dtype == _dt.bool_:
            x = x.astype(_dt.default_float())
    return _clip(x, _clip_bound(min, x, "min"), _clip_bound(max, x, "max"))


@op(
    "lerp",
    tensors=("x", "y", "weight"),
    promote=("x", "y", "weight"),
    inplace="lerp_",
    aliases=NO_TORCH_KEYWORDS,
)
def lerp(x: jax.Array, y: jax.Array, weight: jax.Array, name: str | None = None) -> jax.Array:
    return x + weight * (y - x)


@op(
    "addmm",
    inplace="addmm_",
    tensors=("input", "x", "y"),
    aliases={"input": "input", "other": None},
)
def addmm(
    input: jax.Array,
    x: jax.Array,
    y: jax.Array,
    beta: float = 1.0,  # noqa: A002
    alpha: float = 1.0,
    name: str | None = None,
) -> jax.Array:
    return beta * input + alpha * jnp.matmul(x, y)


# -- comparisons and logic (no gradient) ------------------------------------------------------
_CMP = dict(
    tensors=("x", "y"),
    promote=("x", "y"),
    promote_0d="keep_nd",
    differentiable=False,
    tensor_modules=("logic",),
)


@op("equal", extra_names=("eq",), method_aliases=("eq",), inplace="equal_", **_CMP)
def equal(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.equal(x, y)


@op("not_equal", extra_names=("ne",), method_aliases=("ne",), inplace="not_equal_", **_CMP)
def not_equal(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.not_equal(x, y)


@op(
    "less_than",
    extra_names=("less", "lt"),
    method_aliases=("lt", "less"),
    inplace="less_than_",
    inplace_aliases=("less_",),
    **_CMP,
)
def less_than(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.less(x, y)


@op("less_equal", extra_names=("le",), method_aliases=("le",), inplace="less_equal_", **_CMP)
def less_equal(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.less_equal(x, y)


@op(
    "greater_than",
    extra_names=("greater", "gt"),
    method_aliases=("gt", "greater"),
    inplace="greater_than_",
    **_CMP,
)
def greater_than(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.greater(x, y)


@op("greater_equal", extra_names=("ge",), method_aliases=("ge",), inplace="greater_equal_", **_CMP)
def greater_equal(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.greater_equal(x, y)


@op(
    "logical_and",
    tensor_modules=("logic",),
    inplace="logical_and_",
    tensors=("x", "y"),
    differentiable=False,
)
def logical_and(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.logical_and(x, y)


@op(
    "logical_or",
    tensor_modules=("logic",),
    inplace="logical_or_",
    tensors=("x", "y"),
    differentiable=False,
)
def logical_or(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.logical_or(x, y)


@op(
    "logical_xor",
    tensor_modules=("logic",),
    inplace="logical_xor_",
    tensors=("x", "y"),
    differentiable=False,
)
def logical_xor(
    x: jax.Array, y: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.logical_xor(x, y)


@op("logical_not", tensor_modules=("logic",), inplace="logical_not_", differentiable=False)
def logical_not(x: jax.Array, name: str | None = None, *, out: Tensor | None = None) -> jax.Array:
    return jnp.logical_not(x)


@op(
    "bitwise_and",
    tensor_modules=("logic",),
    inplace="bitwise_and_",
    differentiable=False,
    **{k: v for k, v in _BIN.items()},
    aliases=NO_TORCH_KEYWORDS,
)
def bitwise_and(
    x: jax.Array, y: jax.Array, out: Tensor | None = None, name: str | None = None
) -> jax.Array:
    return jnp.bitwise_and(x, y)


@op(
    "bitwise_or",
    tensor_modules=("logic",),
    inplace="bitwise_or_",
    inplace_keywords=True,
    differentiable=False,
    **_BIN,
)
def bitwise_or(
    x: jax.Array, y: jax.Array, out: Tensor | None = None, name: str | None = None
) -> jax.Array:
    return jnp.bitwise_or(x, y)


@op(
    "bitwise_xor",
    tensor_modules=("logic",),
    inplace="bitwise_xor_",
    differentiable=False,
    **_BIN,
    aliases=NO_TORCH_KEYWORDS,
)
def bitwise_xor(
    x: jax.Array, y: jax.Array, out: Tensor | None = None, name: str | None = None
) -> jax.Array:
    return jnp.bitwise_xor(x, y)


@op(
    "bitwise_not",
    tensor_modules=("logic",),
    extra_names=("bitwise_invert",),
    method_aliases=("bitwise_invert",),
    inplace="bitwise_not_",
    inplace_aliases=("bitwise_invert_",),
    differentiable=False,
    aliases=NO_TORCH_KEYWORDS,
)
def bitwise_not(x: jax.Array, out: Tensor | None = None, name: str | None = None) -> jax.Array:
    return jnp.logical_not(x) if x.dtype == jnp.bool_ else jnp.bitwise_not(x)


def _shift_inplace(x, y, is_arithmetic=True, out=None, name=None):  # out kept, and ignored
    pass


@op(
    "bitwise_left_shift",
    inplace="bitwise_left_shift_",
    differentiable=False,
    **_BIN,
    aliases=NO_TORCH_KEYWORDS,
    inplace_signature=_shift_inplace,
)
def bitwise_left_shift(
    x: jax.Array,
    y: jax.Array,
    is_arithmetic: bool = True,
    out: Tensor | None = None,
    name: str | None = None,
) -> jax.Array:
    return jnp.left_shift(x, y)


@op(
    "bitwise_right_shift",
    inplace="bitwise_right_shift_",
    differentiable=False,
    **_BIN,
    aliases=NO_TORCH_KEYWORDS,
    inplace_signature=_shift_inplace,
)
def bitwise_right_shift(
    x: jax.Array,
    y: jax.Array,
    is_arithmetic: bool = True,
    out: Tensor | None = None,
    name: str | None = None,
) -> jax.Array:
    if is_arithmetic:
        return jnp.right_shift(x, y)
    x, y = jnp.broadcast_arrays(x, jnp.asarray(y, jnp.result_type(x)))
    return jax.lax.shift_right_logical(x, y)


@op("isnan", differentiable=False)
def isnan(x: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.isnan(x)


@op("isinf", differentiable=False)
def isinf(x: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.isinf(x)


@op("isfinite", differentiable=False)
def isfinite(x: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.isfinite(x)


@op(
    "allclose",
    tensor_modules=("logic",),
    tensors=("x", "y"),
    differentiable=False,
    aliases=NO_TORCH_KEYWORDS,
)
def allclose(
    x: jax.Array,
    y: jax.Array,
    rtol: float = 1e-05,
    atol: float = 1e-08,
    equal_nan: bool = False,
    name: str | None = None,
) -> jax.Array:
    return jnp.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


@op("isclose", tensor_modules=("logic",), tensors=("x", "y"), differentiable=False)
def isclose(
    x: jax.Array,
    y: jax.Array,
    rtol: float = 1e-05,
    atol: float = 1e-08,
    equal_nan: bool = False,
    name: str | None = None,
) -> jax.Array:
    return jnp.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


@op(
    "equal_all",
    tensor_modules=("logic",),
    tensors=("x", "y"),
    differentiable=False,
    aliases=NO_TORCH_KEYWORDS,
)
def equal_all(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    return jnp.all(x == y) if x.shape == y.shape else jnp.asarray(False)
