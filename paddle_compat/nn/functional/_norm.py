"""paddle.nn.functional normalization: batch_norm (with the running-stat update written back
into the running_mean/running_var Tensors), layer_norm, instance_norm, group_norm,
local_response_norm."""

from __future__ import annotations

import math
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as _dt
from ..._core.registry import op
from ..._core.tensor import Tensor

_F = dict(namespaces=("paddle.nn.functional",), method=None)
_PRIVATE = dict(namespaces=(), method=None)
_CHANNEL_FIRST = ("NC", "NCL", "NCHW", "NCDHW")
_CHANNEL_LAST = ("NLC", "NHWC", "NDHWC")


_acc = _dt.half_as_float32  # statistics of half-precision inputs are computed in float32


def _ch_axis(data_format: str, ndim: int) -> int:
    if data_format in _CHANNEL_FIRST:
        return 1
    if data_format in _CHANNEL_LAST:
        return ndim - 1
    raise ValueError(
        f"data_format must be one of {_CHANNEL_FIRST + _CHANNEL_LAST}, but got {data_format}"
    )


def _check_channels(c: int, **params) -> None:
    """Per-channel parameters (scale, bias, mean, variance) hold one value per channel."""
    for name, t in params.items():
        if t is not None and list(t.shape) != [c]:
            raise ValueError(
                f"(InvalidArgument) ShapeError: the shape of {name} must equal to [{c}] (the "
                f"number of channels of x). But received: the shape of {name} is {list(t.shape)}"
            )


def _bshape(ndim, ch, n):
    shape = [1] * ndim
    shape[ch] = n
    return shape


def _affine(y, weight, bias, shape):
    if weight is not None:
        y = y * weight.reshape(shape).astype(y.dtype)
    if bias is not None:
        y = y + bias.reshape(shape).astype(y.dtype)
    return y


# -- batch_norm -------------------------------------------------------------------------------
@op("_nn_bn_train", tensors=("x", "weight", "bias"), **_PRIVATE)
def _bn_train(x, weight, bias, epsilon, ch):
    return _bn_batch_stats(x, weight, bias, epsilon, ch)


def _bn_forward(x, weight, bias, epsilon, ch):
    """(y, batch mean, biased batch variance) over every axis but ``ch``."""
    xa = _acc(x)
    axes = tuple(i for i in range(x.ndim) if i != ch)
    mean = jnp.mean(xa, axis=axes)
    shape = _bshape(x.ndim, ch, x.shape[ch])
    xc = xa - mean.reshape(shape)
    var = jnp.mean(xc * xc, axis=axes)
    y = xc * jax.lax.rsqrt(var.reshape(shape) + jnp.asarray(epsilon, xa.dtype))
    return _affine(y, weight, bias, shape).astype(x.dtype), mean, var


# Batch norm's gradient in closed form, as Paddle's kernel computes it, from the batch statistics
# the forward made: JAX's derivative of the statistics' graph made several more passes over x
# ([8,64,32,32] VJP program 1.3-2.1 -> 0.83 ms on the 2-core CPU, forward recomputed inside).
_bn_batch_stats = jax.custom_vjp(_bn_forward, nondiff_argnums=(3, 4))


def _bn_forward_saving(x, weight, bias, epsilon, ch):
    out = _bn_forward(x, weight, bias, epsilon, ch)
    return out, (x, weight, bias, out[1], out[2])


def _bn_backward(epsilon, ch, res, cts):
    x, weight, bias, mean, var = res
    dy, dmean, dvar = cts
    xa, dya = _acc(x), _acc(dy)
    axes = tuple(i for i in range(x.ndim) if i != ch)
    shape = _bshape(x.ndim, ch, x.shape[ch])
    n = x.size // x.shape[ch]
    inv = jax.lax.rsqrt(var + jnp.asarray(epsilon, var.dtype))
    xc = xa - mean.reshape(shape)
    xhat = xc * inv.reshape(shape)
    sum_dy = jnp.sum(dya, axis=axes)
    sum_dy_xhat = jnp.sum(dya * xhat, axis=axes)
    scale = inv if weight is None else inv * weight.astype(inv.dtype)
    dx = (scale / n).reshape(shape) * (
        n * dya - sum_dy.reshape(shape) - xhat * sum_dy_xhat.reshape(shape)
    )
    # the statistics' own cotangents (the running-stat update takes no gradient: usually 0)
    dx = dx + (dmean / n).reshape(shape) + (dvar * (2 / n)).reshape(shape) * xc
    dw = None if weight is None else sum_dy_xhat.astype(weight.dtype)
    db = None if bias is None else sum_dy.astype(bias.dtype)
    return dx.astype(x.dtype), dw, db


_bn_batch_stats.defvjp(_bn_forward_saving, _bn_backward)


@op("_nn_bn_eval", tensors=("x", "mean", "var", "weight", "bias"), **_PRIVATE)
def _bn_eval(x, mean, var, weight, bias, epsilon, ch):
    xa = _acc(x)
    shape = _bshape(x.ndim, ch, x.shape[ch])
    m = mean.reshape(shape).astype(xa.dtype)
    v = var.reshape(shape).astype(xa.dtype)
    y = (xa - m) * jax.lax.rsqrt(v + jnp.asarray(epsilon, xa.dtype))
    return _affine(y, weight, bias, shape).astype(x.dtype)


@op(
    "_nn_bn_update",
    tensors=("running_mean", "running_var", "mean", "var"),
    differentiable=False,
    **_PRIVATE,
)
def _bn_update(running_mean, running_var, mean, var, momentum):
    m = jnp.asarray(momentum, running_mean.dtype)
    new_mean = running_mean * m + mean.astype(running_mean.dtype) * (1 - m)
    new_var = running_var * m + var.astype(running_var.dtype) * (1 - m)
    return new_mean, new_var


@op("batch_norm", composite=True, **_F)
def batch_norm(
    x: Tensor,
    running_mean: Tensor,
    running_var: Tensor,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-05,
    data_format: str = "NCHW",
    use_global_stats: bool | None = None,
) -> Tensor:
    """Normalize with batch statistics (training) or the running ones; in training the running
    stats become ``momentum * running + (1 - momentum) * batch`` (biased batch variance)."""
    ch = _ch_axis(data_format, len(x.shape))
    if len(x.shape) < 2:
        raise ValueError(f"batch_norm expects an input of rank >= 2, got shape {list(x.shape)}")
    c = x.shape[ch]
    _check_channels(c, scale=weight, bias=bias, mean=running_mean, variance=running_var)
    if use_global_stats is None:
        use_global_stats = not training
    if use_global_stats:
        return _bn_eval(x, running_mean, running_var, weight, bias, float(epsilon), ch)
    y, mean, var = _bn_train(x, weight, bias, float(epsilon), ch)
    new_mean, new_var = _bn_update(running_mean, running_var, mean, var, float(momentum))
    running_mean._set_value(new_mean._val)
    running_var._set_value(new_var._val)
    return y


# -- layer / instance / group norm ------------------------------------------------------------
def _normalize(xa, axes, epsilon):
    mean = jnp.mean(xa, axis=axes, keepdims=True)
    xc = xa - mean
    var = jnp.mean(xc * xc, axis=axes, keepdims=True)
    return xc * jax.lax.rsqrt(var + jnp.asarray(epsilon, xa.dtype))


@op(
    "layer_norm",
    amp="black",
    tensors=("x", "weight", "bias"),
    namespaces=("paddle.nn.functional", "paddle"),
    method=None,
)
def layer_norm(
    x: jax.Array,
    normalized_shape: int | Sequence[int],
    weight: jax.Array | None = None,
    bias: jax.Array | None = None,
    epsilon: float = 1e-05,
    name: str | None = None,
) -> jax.Array:
    """Normalize over the trailing ``normalized_shape`` axes, then scale and shift."""
    ns = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if not 0.0 <= epsilon <= 0.001:
        raise ValueError(
            "(InvalidArgument) 'epsilon' in Op(LayerNorm) should be between 0.0 and 0.001, But "
            f"received [{epsilon}]."
        )
    k = len(ns)
    if k > x.ndim or list(x.shape[x.ndim - k :]) != ns:
        raise ValueError(
            f"Given normalized_shape is {ns}, expected input with shape [*, "
            f"{', '.join(str(s) for s in ns)}], but got input shape {list(x.shape)}"
        )
    for name, t in (("Scale", weight), ("Bias", bias)):
        if t is not None and t.ndim != 1:
            raise ValueError(
                f"(InvalidArgument) The dimensions of Input({name}) must be 1, "
                f"but received dimensions of Input({name}) is {list(t.shape)}"
            )
        if t is not None and t.shape[0] != math.prod(ns):
            raise ValueError(
                f"(InvalidArgument) The first dimension value of Input({name}) must equal the "
                f"size of normalized_shape {ns} [{math.prod(ns)}], but received the first "
                f"dimension value of Input({name}) is [{t.shape[0]}]"
            )
    axes = tuple(range(x.ndim - k, x.ndim))
    y = _normalize(_acc(x), axes, epsilon)
    return _affine(y, weight, bias, ns).astype(x.dtype)


@op("instance_norm", tensors=("x", "running_mean", "running_var", "weight", "bias"), **_F)
def instance_norm(
    x: jax.Array,
    running_mean: jax.Array | None = None,
    running_var: jax.Array | None = None,
    weight: jax.Array | None = None,
    bias: jax.Array | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.9,
    eps: float = 1e-05,
    data_format: str = "NCHW",
) -> jax.Array:
    """Normalize each sample's channel over its spatial axes (Paddle's eager kernel always uses
    the input statistics and leaves running_mean/running_var untouched)."""
    ch = _ch_axis(data_format, x.ndim)
    _check_channels(x.shape[ch], scale=weight, bias=bias)
    axes = tuple(i for i in range(1, x.ndim) if i != ch)
    y = _normalize(_acc(x), axes, eps)
    return _affine(y, weight, bias, _bshape(x.ndim, ch, x.shape[ch])).astype(x.dtype)


@op(
    "group_norm",
    amp="black",
    tensors=("x", "weight", "bias"),
    namespaces=("paddle.nn.functional", "paddle"),
    method=None,
)
def group_norm(
    x: jax.Array,
    num_groups: int,
    epsilon: float = 1e-05,
    weight: jax.Array | None = None,
    bias: jax.Array | None = None,
    data_format: str = "NCHW",
    name: str | None = None,
) -> jax.Array:
    """Normalize over groups of channels (and the spatial axes), then a per-channel affine."""
    ch = _ch_axis(data_format, x.ndim)
    c = x.shape[ch]
    if num_groups <= 0 or c % num_groups:
        raise ValueError(
            f"(InvalidArgument) Expected number of channels in input to be divisible by "
            f"num_groups, but got input channel is {c} and num_groups is {num_groups}"
        )
    for name, t in (("Scale", weight), ("Bias", bias)):
        if t is not None and list(t.shape) != [c]:
            raise ValueError(
                f"(InvalidArgument) The Input({name})'s first dimension size of Op(group_norm) "
                f"must be equal to the number of channels. But received: the Input({name})'s "
                f"shape is {list(t.shape)}, the channels is [{c}], the data_format is "
                f"{data_format}."
            )
    xa = _acc(x)
    if ch != 1:
        xa = jnp.moveaxis(xa, ch, 1)
    shape = xa.shape
    g = xa.reshape(shape[0], num_groups, -1)
    y = _normalize(g, (2,), epsilon).reshape(shape)
    y = _affine(y, weight, bias, _bshape(x.ndim, 1, c))
    if ch != 1:
        y = jnp.moveaxis(y, 1, ch)
    return y.astype(x.dtype)


@op("local_response_norm", amp="black", **_F)
def local_response_norm(
    x: jax.Array,
    size: int,
    alpha: float = 0.0001,
    beta: float = 0.75,
    k: float = 1.0,
    data_format: str = "NCHW",
) -> jax.Array:
    """x / (k + alpha / size * sum of x^2 over ``size`` neighbouring channels) ** beta."""
    if x.ndim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input, but got {x.ndim} dimensions")
    if not _dt.is_inexact_np(x.dtype):
        raise TypeError("local_response_norm expects a floating point input")
    ch = _ch_axis(data_format, x.ndim)
    sq = x * x
    pads = [(0, 0)] * x.ndim
    pads[ch] = (size // 2, (size - 1) // 2)
    window = [1] * x.ndim
    window[ch] = size
    s = jax.lax.reduce_window(
        jnp.pad(sq, pads), np.zeros((), x.dtype), jax.lax.add, tuple(window), (1,) * x.ndim, "VALID"
    )
    div = (jnp.asarray(k, x.dtype) + jnp.asarray(alpha / size, x.dtype) * s) ** beta
    return x / div
