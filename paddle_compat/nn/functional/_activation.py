"""paddle.nn.functional activations: relu family, sigmoid family, softmax, gelu, glu, prelu,
and the random ones (rrelu, gumbel_softmax) that take their PRNG key as an input."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as _dt
from ..._core import host_random as _host
from ..._core import random as _random
from ..._core.dtype import DTypeLike
from ..._core.registry import check_dtype, op
from ..._core.tensor import Tensor

_F = ("paddle.nn.functional",)
_ACT = dict(namespaces=_F, method=None)
_PRIVATE = dict(namespaces=(), method=None)


def _c(x, v):
    """A Python scalar as an array of x's dtype (keeps float16/bfloat16 results in dtype)."""
    return jnp.asarray(v, dtype=x.dtype)


# -- relu family ------------------------------------------------------------------------------
@op("relu", dtypes=_dt.INEXACT, inplace="relu_", **_ACT)
def relu(x: jax.Array) -> jax.Array:
    """max(x, 0)."""
    return jnp.where(x > 0, x, _c(x, 0))


@op("relu6", dtypes=_dt.INEXACT, **_ACT)
def relu6(x: jax.Array) -> jax.Array:
    """min(max(x, 0), 6); gradient 1 strictly inside (0, 6)."""
    return jnp.where(x <= 0, _c(x, 0), jnp.where(x >= 6, _c(x, 6), x))


@op("leaky_relu", dtypes=_dt.INEXACT, inplace="leaky_relu_", **_ACT)
def leaky_relu(x: jax.Array, negative_slope: float = 0.01) -> jax.Array:
    """x for x > 0, negative_slope * x otherwise."""
    return jnp.where(x > 0, x, x * _c(x, negative_slope))


@op("elu", dtypes=_dt.INEXACT, inplace="elu_", **_ACT)
def elu(x: jax.Array, alpha: float = 1.0) -> jax.Array:
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    return jnp.where(x > 0, x, _c(x, alpha) * jnp.expm1(jnp.minimum(x, 0)))


@op("selu", dtypes=_dt.INEXACT, **_ACT)
def selu(
    x: jax.Array, scale: float = 1.0507009873554805, alpha: float = 1.6732632423543772
) -> jax.Array:
    """scale * (x if x > 0 else alpha * (exp(x) - 1))."""
    neg = _c(x, alpha) * jnp.expm1(jnp.minimum(x, 0))
    return _c(x, scale) * jnp.where(x > 0, x, neg)


@op("celu", dtypes=_dt.INEXACT, **_ACT)
def celu(x: jax.Array, alpha: float = 1.0) -> jax.Array:
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    if alpha == 0:
        raise ZeroDivisionError("alpha cannot be 0 for celu")
    a = _c(x, alpha)
    return jnp.where(x > 0, x, a * jnp.expm1(jnp.minimum(x, 0) / a))


@op("hardtanh", dtypes=_dt.INEXACT, inplace="hardtanh_", **_ACT)
def hardtanh(x: jax.Array, min: float = -1.0, max: float = 1.0) -> jax.Array:  # noqa: A002 - Paddle's names
    """Clip to [min, max]; gradient 1 strictly inside."""
    return jnp.where(x <= min, _c(x, min), jnp.where(x >= max, _c(x, max), x))


@op("hardshrink", dtypes=_dt.INEXACT, **_ACT)
def hardshrink(x: jax.Array, threshold: float = 0.5) -> jax.Array:
    """x where |x| > threshold, else 0."""
    return jnp.where((x > threshold) | (x < -threshold), x, _c(x, 0))


@op("softshrink", dtypes=_dt.INEXACT, **_ACT)
def softshrink(x: jax.Array, threshold: float = 0.5) -> jax.Array:
    """x - threshold above threshold, x + threshold below -threshold, 0 between."""
    if threshold < 0:
        raise ValueError(f"The threshold must be no less than zero. Received: {threshold}.")
    t = _c(x, threshold)
    return jnp.where(x > t, x - t, jnp.where(x < -t, x + t, _c(x, 0)))


@op("thresholded_relu", dtypes=_dt.INEXACT, inplace="thresholded_relu_", **_ACT)
def thresholded_relu(x: jax.Array, threshold: float = 1.0, value: float = 0.0) -> jax.Array:
    """x where x > threshold, else value."""
    return jnp.where(x > threshold, x, _c(x, value))


@op("tanhshrink", amp="black", dtypes=_dt.INEXACT, kernel="tanh_shrink", **_ACT)
def tanhshrink(x: jax.Array) -> jax.Array:
    """x - tanh(x)."""
    return x - jnp.tanh(x)


@op("softsign", dtypes=_dt.INEXACT, **_ACT)
def softsign(x: jax.Array) -> jax.Array:
    """x / (1 + |x|)."""
    return x / (1 + jnp.abs(x))


# -- smooth activations -----------------------------------------------------------------------
def _softplus(x, beta=1.0, threshold=20.0):
    b = _c(x, beta)
    bx = x * b
    safe = jnp.where(bx > threshold, _c(x, 0), bx)
    return jnp.where(bx > threshold, x, jnp.logaddexp(safe, _c(x, 0)) / b)


@op("softplus", amp="black", dtypes=_dt.INEXACT, **_ACT)
def softplus(x: jax.Array, beta: float = 1, threshold: float = 20) -> jax.Array:
    """log(1 + exp(beta * x)) / beta, and x where beta * x > threshold."""
    return _softplus(x, beta, threshold)


@op("log_sigmoid", dtypes=_dt.INEXACT, kernel="logsigmoid", extra_names=("logsigmoid",), **_ACT)
def log_sigmoid(x: jax.Array) -> jax.Array:
    """log(sigmoid(x))."""
    return jax.nn.log_sigmoid(x)


@op("_nn_silu", dtypes=_dt.INEXACT, kernel="silu", **_PRIVATE)
def _silu(x: jax.Array) -> jax.Array:
    return x * jax.nn.sigmoid(x)


@op("silu", composite=True, **_ACT)
def silu(x: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x); ``inplace=True`` writes the result into ``x`` and returns ``x``."""
    if not inplace:
        return _silu(x)
    from ..._ops._methods import make_inplace  # the registry's in-place wrapper

    return make_inplace(_silu, "silu")(x)


@op("swish", dtypes=_dt.INEXACT, **_ACT)
def swish(x: jax.Array) -> jax.Array:
    """x * sigmoid(x)."""
    return x * jax.nn.sigmoid(x)


@op("mish", dtypes=_dt.INEXACT, **_ACT)
def mish(x: jax.Array) -> jax.Array:
    """x * tanh(softplus(x)) (softplus threshold 20)."""
    return x * jnp.tanh(_softplus(x, 1.0, 20.0))


@op("gelu", dtypes=_dt.INEXACT, **_ACT)
def gelu(x: jax.Array, approximate: bool | str = False) -> jax.Array:
    """Gaussian error linear unit; ``approximate=True`` or ``'tanh'`` uses the tanh formula."""
    if isinstance(approximate, str):
        if approximate not in ("tanh", "none"):
            raise ValueError(
                f"approximate must be True, False, 'tanh' or 'none', got {approximate!r}"
            )
        approximate = approximate == "tanh"
    return jax.nn.gelu(x, approximate=bool(approximate))


@op("hardswish", dtypes=_dt.INEXACT, **_ACT)
def hardswish(x: jax.Array) -> jax.Array:
    """x * relu6(x + 3) / 6."""
    return x * jnp.clip(x + 3, 0, 6) / 6


@op("hardsigmoid", dtypes=_dt.INEXACT, **_ACT)
def hardsigmoid(x: jax.Array, slope: float = 0.1666667, offset: float = 0.5) -> jax.Array:
    """clip(slope * x + offset, 0, 1); gradient slope strictly inside."""
    y = x * _c(x, slope) + _c(x, offset)
    return jnp.where(y <= 0, _c(x, 0), jnp.where(y >= 1, _c(x, 1), y))


# -- softmax family ---------------------------------------------------------------------------
def _cast(x, dtype):
    return x if dtype is None else x.astype(_dt.to_dtype(dtype).np)


@op("softmax", amp="black", inplace="softmax_", **_ACT)
def softmax(x: jax.Array, axis: int = -1, dtype: DTypeLike | None = None) -> jax.Array:
    """exp(x) / sum(exp(x)) along ``axis`` (x cast to ``dtype`` first)."""
    x = _cast(x, dtype)
    check_dtype(x, _dt.INEXACT, "softmax")
    return jax.nn.softmax(x, axis=axis)


@op("log_softmax", amp="black", **_ACT)
def log_softmax(x: jax.Array, axis: int = -1, dtype: DTypeLike | None = None) -> jax.Array:
    """log(softmax(x)) along ``axis`` (x cast to ``dtype`` first)."""
    x = _cast(x, dtype)
    check_dtype(x, _dt.INEXACT, "log_softmax")
    return jax.nn.log_softmax(x, axis=axis)


@op("glu", dtypes=_dt.INEXACT, **_ACT)
def glu(x: jax.Array, axis: int = -1) -> jax.Array:
    """Split x in two halves a, b along ``axis``; a * sigmoid(b)."""
    if x.shape[axis] % 2:
        raise ValueError(
            f"The axis to split the input must have an even size, got {x.shape[axis]} "
            f"(shape {list(x.shape)}, axis {axis})."
        )
    a, b = jnp.split(x, 2, axis=axis)
    return a * jax.nn.sigmoid(b)


@op("maxout", dtypes=_dt.INEXACT, **_ACT)
def maxout(x: jax.Array, groups: int, axis: int = 1) -> jax.Array:
    """Max over ``groups`` consecutive channels along ``axis``."""
    axis = axis % x.ndim
    c = x.shape[axis]
    if c % groups:
        raise ValueError(
            f"The number of input channels ({c}) must be divisible by groups ({groups})."
        )
    shape = x.shape[:axis] + (c // groups, groups) + x.shape[axis + 1 :]
    return jnp.max(x.reshape(shape), axis=axis + 1)


@op("prelu", dtypes=_dt.INEXACT, tensors=("x", "weight"), **_ACT)
def prelu(x: jax.Array, weight: jax.Array, data_format: str = "NCHW") -> jax.Array:
    """x for x > 0, weight * x otherwise; weight has 1 element or one per channel."""
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError(
            f"data_format must be one of NC/NCL/NCHW/NCDHW/NLC/NHWC/NDHWC, got {data_format!r}"
        )
    w = weight.astype(x.dtype)
    if w.size > 1:
        if x.ndim < 2:
            raise ValueError(
                f"The dim count of x should be >= 2 when weight has more than one "
                f"element, got x of shape {list(x.shape)}"
            )
        ch = 1 if data_format[1] == "C" else x.ndim - 1
        if x.shape[ch] != w.size:
            raise ValueError(
                f"The weight size ({w.size}) must equal the number of channels "
                f"({x.shape[ch]}) of x with shape {list(x.shape)}."
            )
        shape = [1] * x.ndim
        shape[ch] = w.size
        w = w.reshape(shape)
    else:
        w = w.reshape(())
    return jnp.where(x > 0, x, w * x)


# -- random activations: the key is an input of the kernel ------------------------------------
@op("_nn_rrelu_train", tensors=("x", "key"), **_PRIVATE)
def _rrelu_train(x, key, lower, upper):
    a = jax.random.uniform(jax.random.wrap_key_data(key), x.shape, x.dtype, lower, upper)
    return jnp.where(x >= 0, x, a * x)


@op("_nn_rrelu_slopes", tensors=("x", "slopes"), **_PRIVATE)
def _rrelu_slopes(x, slopes):
    return jnp.where(x >= 0, x, slopes * x)


@op("rrelu", composite=True, **_ACT)
def rrelu(
    x: Tensor, lower: float = 1.0 / 8.0, upper: float = 1.0 / 3.0, training: bool = True
) -> Tensor:
    """Randomized leaky relu: slope ~ U(lower, upper) in training, (lower + upper) / 2 otherwise."""
    if not 0 <= lower <= 1 or not 0 <= upper <= 1:
        raise ValueError(f"lower and upper must be in [0, 1], got {lower} and {upper}")
    if lower > upper:
        raise ValueError(f"lower ({lower}) must not be greater than upper ({upper})")
    if not training:
        return leaky_relu(x, (lower + upper) / 2.0)
    eng = _random.host_engine()
    if eng is not None:  # Paddle draws a slope for each negative element, in order
        neg = np.asarray(x.numpy()) < 0
        slopes = np.ones(neg.shape, np.float32)
        slopes[neg] = _host.uniform(eng, int(neg.sum()), lower, upper, np.float32)
        return _rrelu_slopes(x, Tensor(slopes.astype(x.dtype.np)))
    return _rrelu_train(x, Tensor(_random.next_key()), float(lower), float(upper))


@op(
    "_nn_gumbel_softmax",
    dtypes=_dt.INEXACT,
    kernel="gumbel_softmax",
    tensors=("x", "key"),
    **_PRIVATE,
)
def _gumbel_softmax(x, key, temperature, hard, axis):
    u = jax.random.uniform(
        jax.random.wrap_key_data(key), x.shape, x.dtype, minval=jnp.finfo(x.dtype).tiny, maxval=1.0
    )
    return _gumbel_from_noise(x, -jnp.log(-jnp.log(u)), temperature, hard, axis)


@op(
    "_nn_gumbel_noisy_softmax",
    dtypes=_dt.INEXACT,
    kernel="gumbel_softmax",
    tensors=("x", "noise"),
    **_PRIVATE,
)
def _gumbel_noisy_softmax(x, noise, temperature, hard, axis):
    return _gumbel_from_noise(x, noise, temperature, hard, axis)


def _gumbel_from_noise(x, noise, temperature, hard, axis):
    y = jax.nn.softmax((x + noise) / temperature, axis=axis)
    if not hard:
        return y
    idx = jnp.argmax(y, axis=axis, keepdims=True)
    onehot = (
        jnp.arange(x.shape[axis]).reshape([-1 if i == axis % x.ndim else 1 for i in range(x.ndim)])
        == idx
    ).astype(x.dtype)
    return onehot - jax.lax.stop_gradient(y) + y


@op("gumbel_softmax", composite=True, **_ACT)
def gumbel_softmax(
    x: Tensor, temperature: float = 1.0, hard: bool = False, axis: int = -1
) -> Tensor:
    """Softmax of (x + Gumbel noise) / temperature; ``hard`` gives a one-hot with soft grads."""
    eng = _random.host_engine()
    if eng is not None:  # Paddle's noise: -log(-log(u)), u uniform in [1e-5, 1)
        n = int(np.prod(x.shape, dtype=np.int64))
        st = np.float64 if x.dtype.name == "float64" else np.float32
        u = _host.uniform(eng, n, 0.00001, 1.0, st)
        g = -_host.log(-_host.log(u))
        noise = Tensor(g.reshape(tuple(x.shape)).astype(x.dtype.np))
        return _gumbel_noisy_softmax(x, noise, float(temperature), bool(hard), axis)
    return _gumbel_softmax(x, Tensor(_random.next_key()), float(temperature), bool(hard), axis)


@op("swiglu", tensors=("x", "y"), **_ACT)
def swiglu(x: jax.Array, y: jax.Array | None = None) -> jax.Array:
    """silu(x) * y; without y, x is split in two halves along the last axis."""
    if y is None:
        x, y = jnp.split(x, 2, axis=-1)
    return x * jax.nn.sigmoid(x) * y
