"""More elementwise math: binary float functions (hypot, logaddexp, copysign, nextafter,
ldexp, gcd/lcm, gammainc), unary helpers (deg2rad, sgn, stanh, sinc, nan_to_num, signbit,
isposinf...), special functions (i0/i1, polygamma, multigammaln, frexp)."""

from __future__ import annotations

import math as _math

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
from jax import lax

from .._core import dtype as _dt
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor
from ._methods import make_inplace


def _float_in(x):
    """Int/bool inputs compute in the default float dtype (Paddle's autocast for math ops)."""
    if not _dt.is_inexact_np(x.dtype):
        return x.astype(_dt.default_float().np)
    return x


def _name(a) -> str:
    return _dt.to_dtype(a.dtype).name


def _same_float(x, y):
    """Binary float op: both sides to one float dtype (ints -> default float)."""
    x, y = _float_in(x), _float_in(y)
    if x.dtype != y.dtype:
        d = jnp.promote_types(x.dtype, y.dtype)
        x, y = x.astype(d), y.astype(d)
    return x, y


_BIN = dict(tensors=("x", "y"))


# -- binary ------------------------------------------------------------------------------------
@op(
    "hypot",
    inplace="hypot_",
    promote=("x", "y"),
    promote_0d="keep_nd",  # a 0-D operand takes the other's dtype, as Paddle's
    **_BIN,
    aliases=NO_TORCH_KEYWORDS,
)
def hypot(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    """sqrt(x**2 + y**2) elementwise."""
    return jnp.hypot(*_same_float(x, y))


@op("logaddexp", **_BIN, aliases=NO_TORCH_KEYWORDS)
def logaddexp(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    """log(exp(x) + exp(y)) without overflow."""
    return jnp.logaddexp(*_same_float(x, y))


@op(
    "copysign",
    inplace="copysign_",
    promote=("x", "y"),
    promote_0d="keep_nd",
    **_BIN,
    aliases=NO_TORCH_KEYWORDS,
)
def copysign(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    """Magnitude of x with the sign of y (int inputs keep their dtype)."""
    if jnp.issubdtype(x.dtype, jnp.inexact):
        return jnp.copysign(x, y)
    neg = jnp.signbit(y) if jnp.issubdtype(y.dtype, jnp.floating) else y < 0
    return jnp.where(neg, -jnp.abs(x), jnp.abs(x)).astype(x.dtype)


@op("nextafter", promote=("x", "y"), differentiable=False, **_BIN, aliases=NO_TORCH_KEYWORDS)
def nextafter(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    """The next representable float after x in the direction of y."""
    return jnp.nextafter(x, y)


@op("ldexp", inplace="ldexp_", **_BIN, aliases=NO_TORCH_KEYWORDS)
def ldexp(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    """x * 2**y; y must be an integer Tensor."""
    if not jnp.issubdtype(y.dtype, jnp.integer):
        raise TypeError(
            f"(InvalidType) ldexp: the dtype of 'y' must be an integer type, "
            f"but received {_name(y)}."
        )
    x = _float_in(x)
    return x * jnp.power(jnp.asarray(2.0, x.dtype), y.astype(x.dtype))


def _float_gcd(a, b):
    """Euclid's algorithm elementwise (Paddle also takes float tensors)."""
    a, b = jnp.abs(a), jnp.abs(b)

    def body(ab):
        a, b = ab
        nz = b != 0
        return jnp.where(nz, b, a), jnp.where(nz, jnp.remainder(a, jnp.where(nz, b, 1)), 0)

    return lax.while_loop(lambda ab: jnp.any(ab[1] != 0), body, (a, b))[0]


def _gcd(x, y):
    x, y = jnp.broadcast_arrays(x, y)
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.gcd(x, y)
    return _float_gcd(x, y)


@op("gcd", inplace="gcd_", inplace_keywords=True, promote=("x", "y"), differentiable=False, **_BIN)
def gcd(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    """Greatest common divisor (non-negative), elementwise."""
    return _gcd(x, y)


@op("lcm", inplace="lcm_", inplace_keywords=True, promote=("x", "y"), differentiable=False, **_BIN)
def lcm(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    """Least common multiple (non-negative), elementwise; 0 when either side is 0."""
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.lcm(x, y)
    g = _gcd(x, y)
    return jnp.where(g == 0, 0, jnp.abs(x * y) / jnp.where(g == 0, 1, g)).astype(x.dtype)


@op("gammainc", inplace="gammainc_", **_BIN, aliases=NO_TORCH_KEYWORDS)
def gammainc(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    """Regularized lower incomplete gamma function P(x, y)."""
    x, y = _same_float(x, y)
    return jsp.gammainc(x, y)


@op("gammaincc", inplace="gammaincc_", **_BIN, aliases=NO_TORCH_KEYWORDS)
def gammaincc(x: jax.Array, y: jax.Array, name: str | None = None) -> jax.Array:
    """Regularized upper incomplete gamma function Q(x, y)."""
    x, y = _same_float(x, y)
    return jsp.gammaincc(x, y)


# -- unary -------------------------------------------------------------------------------------
@op("deg2rad", aliases=NO_TORCH_KEYWORDS)
def deg2rad(x: jax.Array, name: str | None = None) -> jax.Array:
    """Degrees to radians (a bool tensor stays bool, as in Paddle: the product is cast back)."""
    if x.dtype == jnp.bool_:
        return x
    x = _float_in(x)
    return x * jnp.asarray(_math.pi / 180.0, x.dtype)


@op("rad2deg", aliases=NO_TORCH_KEYWORDS)
def rad2deg(x: jax.Array, name: str | None = None) -> jax.Array:
    """Radians to degrees (a bool tensor stays bool, as in Paddle: the product is cast back)."""
    if x.dtype == jnp.bool_:
        return x
    x = _float_in(x)
    return x * jnp.asarray(180.0 / _math.pi, x.dtype)


@op("sgn", dtypes=_dt.INEXACT, dtype_error=TypeError, aliases=NO_TORCH_KEYWORDS)
def sgn(x: jax.Array, name: str | None = None) -> jax.Array:
    """Sign; for complex x, x / |x| (0 stays 0). Float and complex only."""
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        a = jnp.abs(x)
        return jnp.where(a == 0, jnp.zeros_like(x), x / jnp.where(a == 0, 1, a).astype(x.dtype))
    return jnp.sign(x)


@op("stanh", aliases=NO_TORCH_KEYWORDS)
def stanh(
    x: jax.Array, scale_a: float = 0.67, scale_b: float = 1.7159, name: str | None = None
) -> jax.Array:
    """scale_b * tanh(scale_a * x)."""
    x = _float_in(x)
    return scale_b * jnp.tanh(scale_a * x)


@op("sinc", dtypes=_dt.FLOATING, dtype_error=TypeError, inplace="sinc_", aliases=NO_TORCH_KEYWORDS)
def sinc(x: jax.Array, name: str | None = None) -> jax.Array:
    """sin(pi x) / (pi x), 1 at 0. Float only."""
    return jnp.sinc(x)


@op("signbit", differentiable=False, aliases=NO_TORCH_KEYWORDS)
def signbit(x: jax.Array, name: str | None = None) -> jax.Array:
    """True where the sign bit is set (-0.0 included)."""
    if jnp.issubdtype(x.dtype, jnp.floating):
        return jnp.signbit(x)
    if x.dtype == jnp.bool_ or jnp.issubdtype(x.dtype, jnp.unsignedinteger):
        return jnp.zeros(x.shape, jnp.bool_)
    return x < 0


@op("isposinf", differentiable=False, aliases=NO_TORCH_KEYWORDS)
def isposinf(x: jax.Array, name: str | None = None) -> jax.Array:
    """True where x is +inf."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return jnp.zeros(x.shape, jnp.bool_)
    return jnp.isposinf(x)


@op("isneginf", differentiable=False, aliases=NO_TORCH_KEYWORDS)
def isneginf(x: jax.Array, name: str | None = None) -> jax.Array:
    """True where x is -inf."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return jnp.zeros(x.shape, jnp.bool_)
    return jnp.isneginf(x)


@op("isreal", differentiable=False, aliases=NO_TORCH_KEYWORDS)
def isreal(x: jax.Array, name: str | None = None) -> jax.Array:
    """True where the imaginary part is 0 (always True for real dtypes)."""
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        return jnp.imag(x) == 0
    return jnp.ones(x.shape, jnp.bool_)


@op("nan_to_num", inplace="nan_to_num_", aliases=NO_TORCH_KEYWORDS)
def nan_to_num(
    x: jax.Array,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
    name: str | None = None,
) -> jax.Array:
    """Replace NaN, +inf and -inf (default: the dtype's largest/smallest finite values)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):  # Paddle asserts on the dtype
        raise AssertionError(
            f"nan_to_num: the dtype of 'x' must be float16, bfloat16, "
            f"float32 or float64, but received {_name(x)}."
        )
    return jnp.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


@op("negative", method=True, aliases=NO_TORCH_KEYWORDS)
def negative(x: jax.Array, name: str | None = None) -> jax.Array:
    """-x."""
    return jnp.negative(x)


@op("positive", aliases=NO_TORCH_KEYWORDS)
def positive(x: jax.Array, name: str | None = None) -> jax.Array:
    """+x (a copy); bool tensors are refused."""
    if x.dtype == jnp.bool_:
        raise TypeError(
            "(InvalidType) positive: the unary + operator does not support bool tensors."
        )
    return x


@op("gammaln", inplace="gammaln_", aliases=NO_TORCH_KEYWORDS)
def gammaln(x: jax.Array, name: str | None = None) -> jax.Array:
    """log |Gamma(x)| (float only)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise RuntimeError(
            f"(NotFound) The kernel of gammaln for dtype {_name(x)} is not "
            "registered. Supported dtypes: float32, float64."
        )
    return jsp.gammaln(x)


def _bessel(fn):
    def f(x: jax.Array, name: str | None = None) -> jax.Array:
        return fn(_float_in(x))

    return f


for _n, _fn in (("i0", jsp.i0), ("i0e", jsp.i0e), ("i1", jsp.i1), ("i1e", jsp.i1e)):
    _f = _bessel(_fn)
    _f.__doc__ = f"Modified Bessel function ``{_n}``."
    op(_n, inplace="i0_" if _n == "i0" else None, aliases=NO_TORCH_KEYWORDS)(_f)


@op("polygamma", inplace="polygamma_", aliases=NO_TORCH_KEYWORDS)
def polygamma(x: jax.Array, n: int, name: str | None = None) -> jax.Array:
    """The n-th derivative of digamma."""
    if not isinstance(n, int) or n < 0:
        raise ValueError(
            f"(InvalidArgument) polygamma: n must be a non-negative int, but received {n!r}."
        )
    x = _float_in(x)
    if n == 0:
        return jsp.digamma(x)
    return jsp.polygamma(jnp.asarray(n, jnp.int32), x)


@op("multigammaln", inplace="multigammaln_", aliases=NO_TORCH_KEYWORDS)
def multigammaln(x: jax.Array, p: float, name: str | None = None) -> jax.Array:
    """Log of the multivariate gamma function of dimension p."""
    if not isinstance(p, int) or p < 1:  # Paddle asserts p >= 1
        raise AssertionError(f"multigammaln: p must be a positive int, but received {p!r}.")
    x = _float_in(x)
    c = jnp.asarray(0.25 * p * (p - 1) * _math.log(_math.pi), x.dtype)
    js = jnp.arange(p, dtype=x.dtype) * jnp.asarray(-0.5, x.dtype)
    return c + jnp.sum(jsp.gammaln(x[..., None] + js), axis=-1)


@op("frexp", dtypes=_dt.FLOATING, dtype_error=TypeError, aliases=NO_TORCH_KEYWORDS)
def frexp(x: jax.Array, name: str | None = None) -> tuple[jax.Array, jax.Array]:
    """(mantissa, exponent) with x = mantissa * 2**exponent, both in x's float dtype."""
    m, e = jnp.frexp(x)
    return m, e.astype(x.dtype)


@op("_increment", namespaces=(), method=None, inplace="increment")
def _increment(x, value=1.0):
    if x.size != 1:
        raise ValueError(
            f"(InvalidArgument) increment: the number of elements in x must be "
            f"1, but received shape {list(x.shape)}."
        )
    return x + jnp.asarray(value, x.dtype)


_increment_inplace = make_inplace(_increment)


@op("increment", composite=True, aliases=NO_TORCH_KEYWORDS)
def increment(x: Tensor, value: float = 1.0, name: str | None = None) -> Tensor:
    """Add ``value`` to a one-element Tensor in place and return it."""
    return _increment_inplace(x, value)
