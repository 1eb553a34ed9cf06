"""Reductions and statistics: sum/mean/max/min/prod, argmax/argmin, logsumexp, std/var,
cumsum/cumprod, all/any."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core.dtype import DTypeLike
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor

_DIM = {"dim": "axis"}  # Paddle 3.3 also takes PyTorch's dim= for axis


def norm_axis(axis, ndim):
    """Paddle axis argument (None, int, list) -> a tuple of non-negative axes, or None."""
    if axis is None:
        return None
    if isinstance(axis, int | np.integer):
        axis = (int(axis),)
    axes = []
    for a in axis:
        if not -builtins.max(ndim, 1) <= a < builtins.max(ndim, 1):
            raise ValueError(
                f"(InvalidArgument) axis {a} is out of range for a tensor of rank {ndim}: "
                f"expected in [{-builtins.max(ndim, 1)}, {builtins.max(ndim, 1) - 1}]."
            )
        axes.append(a % builtins.max(ndim, 1))
    if ndim == 0:
        return None
    return tuple(axes) if axes else None


def check_0d_axis(axis) -> None:
    """The axis a cumulative op takes on a 0-D tensor: 0 or -1 (Paddle's ValueError else)."""
    if axis not in (0, -1):
        raise ValueError(
            f"(InvalidArgument) The axis must be -1 or 0 in 0D Tensor, but the value given is "
            f"{axis}."
        )


def _acc_dtype(x, dtype):
    """sum/prod of bool and int32 accumulate in int64, as Paddle does."""
    if dtype is not None:
        return _dt.to_dtype(dtype).np
    if x.dtype in (jnp.bool_, jnp.int32, jnp.int16, jnp.int8, jnp.uint8):
        return jnp.int64
    return x.dtype


@op("sum", amp="black", aliases=_DIM)
def sum(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    dtype: DTypeLike | None = None,  # noqa: A001
    keepdim: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    ax = norm_axis(axis, x.ndim)
    if dtype is None and x.dtype in _dt.HALF:  # Paddle sums halves in float32
        return jnp.sum(_dt.half_as_float32(x), axis=ax, keepdims=keepdim).astype(x.dtype)
    return jnp.sum(x, axis=ax, dtype=_acc_dtype(x, dtype), keepdims=keepdim)


@op("nansum", aliases=NO_TORCH_KEYWORDS)
def nansum(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    dtype: DTypeLike | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> jax.Array:
    return jnp.nansum(x, axis=norm_axis(axis, x.ndim), dtype=_acc_dtype(x, dtype), keepdims=keepdim)


@op("mean", tensor_modules=("stat",), amp="black", aliases=_DIM)
def mean(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    dtype: DTypeLike | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """Mean over ``axis``; ``dtype`` casts x first. Integer and bool inputs keep their dtype,
    as in Paddle 3.3.1: the integer sum divided by the count, rounded toward zero (bool: any)."""
    if dtype is not None:
        x = x.astype(_dt.to_dtype(dtype).np)
    ax = norm_axis(axis, x.ndim)
    if _dt.is_inexact_np(x.dtype):
        return jnp.mean(x, axis=ax, keepdims=keepdim)
    if x.dtype == jnp.bool_:
        return jnp.any(x, axis=ax, keepdims=keepdim)
    total = jnp.sum(x, axis=ax, keepdims=keepdim, dtype=x.dtype)
    count = x.size // builtins.max(total.size, 1) if x.size else 0
    return jax.lax.div(total, jnp.full(total.shape, builtins.max(count, 1), x.dtype))


@op("nanmean", aliases=NO_TORCH_KEYWORDS)
def nanmean(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> jax.Array:
    """Mean over the values that are not NaN; integers give float32, as in Paddle 3.3.1."""
    if not _dt.is_inexact_np(x.dtype):
        x = x.astype(jnp.float32)
    return jnp.nanmean(x, axis=norm_axis(axis, x.ndim), keepdims=keepdim)


@op("prod", amp="black", aliases=_DIM)
def prod(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    dtype: DTypeLike | None = None,
    out: Tensor | None = None,
    name: str | None = None,
) -> jax.Array:
    if dtype is None and jnp.issubdtype(x.dtype, jnp.integer):
        dtype = x.dtype  # Paddle keeps int32 (jnp.prod would widen it to int64)
    return jnp.prod(
        x,
        axis=norm_axis(axis, x.ndim),
        keepdims=keepdim,
        dtype=_acc_dtype(x, dtype) if dtype is not None else None,
    )


def _check_nonempty(x, name):
    if x.size == 0:
        raise ValueError(f"(InvalidArgument) {name} of an empty tensor (shape {list(x.shape)}).")


@op("max", aliases=NO_TORCH_KEYWORDS)
def max(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> jax.Array:  # noqa: A001
    _check_nonempty(x, "max")
    return jnp.max(x, axis=norm_axis(axis, x.ndim), keepdims=keepdim)


@op("min", aliases=NO_TORCH_KEYWORDS)
def min(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> jax.Array:  # noqa: A001
    _check_nonempty(x, "min")
    return jnp.min(x, axis=norm_axis(axis, x.ndim), keepdims=keepdim)


@op("amax", aliases=_DIM)
def amax(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    """Like max, but the gradient is split evenly between equal maxima."""
    return jnp.max(x, axis=norm_axis(axis, x.ndim), keepdims=keepdim)


@op("amin", aliases=_DIM)
def amin(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    return jnp.min(x, axis=norm_axis(axis, x.ndim), keepdims=keepdim)


def _arg(fn, x, axis, keepdim, dtype):
    dt = _dt.to_dtype(dtype).np
    if axis is None:
        r = fn(x.reshape(-1))
        if keepdim:
            r = r.reshape((1,) * x.ndim)
        return r.astype(dt)
    return fn(x, axis=int(axis), keepdims=keepdim).astype(dt)


@op("argmax", tensor_modules=("search",), differentiable=False, aliases=_DIM)
def argmax(
    x: jax.Array,
    axis: int | None = None,
    keepdim: bool = False,
    dtype: DTypeLike = "int64",
    name: str | None = None,
) -> jax.Array:
    return _arg(jnp.argmax, x, axis, keepdim, dtype)


@op("argmin", tensor_modules=("search",), differentiable=False, aliases=_DIM)
def argmin(
    x: jax.Array,
    axis: int | None = None,
    keepdim: bool = False,
    dtype: DTypeLike = "int64",
    name: str | None = None,
) -> jax.Array:
    return _arg(jnp.argmin, x, axis, keepdim, dtype)


@op("logsumexp", aliases=_DIM)
def logsumexp(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    return jax.scipy.special.logsumexp(x, axis=norm_axis(axis, x.ndim), keepdims=keepdim)


@op("var", amp="black", tensor_modules=("stat",), aliases=_DIM)
def var(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    correction: float = 1,
    out: Tensor | None = None,
) -> jax.Array:
    """Variance dividing by ``N - correction`` (``unbiased``: 1 or 0, not both with a
    ``correction`` other than 1); ``N - correction <= 0`` gives inf, as in Paddle. Integer
    inputs keep their dtype: integer mean, squares and quotient, each rounded toward zero."""
    if unbiased is not None and correction != 1:
        raise ValueError("Only one of unbiased and correction may be given")
    ddof = (1 if unbiased else 0) if unbiased is not None else correction
    ax = norm_axis(axis, x.ndim)
    if not _dt.is_inexact_np(x.dtype):
        return _int_var(x, ax, ddof, keepdim)
    return _var(x, ax, ddof, keepdim)


def _int_var(x, ax, ddof, keepdim):
    """Paddle 3.3.1's variance of integers: integer mean, squares and quotient, each rounded
    toward zero, in the input's dtype (bool has no kernel: its RuntimeError)."""
    if x.dtype == jnp.bool_:
        raise RuntimeError(
            "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), bool) of kernel "
            "`subtract` is not registered. Selected wrong DataType `bool`."
        )
    total = jnp.sum(x, axis=ax, keepdims=True, dtype=x.dtype)
    n = x.size // builtins.max(total.size, 1)
    m = jax.lax.div(total, jnp.full(total.shape, builtins.max(n, 1), x.dtype))
    ss = jnp.sum(jnp.square(x - m), axis=ax, keepdims=keepdim, dtype=x.dtype)
    return jax.lax.div(ss, jnp.full(ss.shape, builtins.max(int(n - ddof), 1), x.dtype))


def _var(x, ax, ddof, keepdim):
    m = jnp.mean(x, axis=ax, keepdims=True)
    ss = jnp.sum(jnp.square(jnp.abs(x - m)), axis=ax, keepdims=keepdim)
    n = x.size // builtins.max(ss.size, 1) if x.size else 0
    return ss / jnp.asarray(builtins.max(n - ddof, 0), ss.dtype)


@op("std", amp="black", tensor_modules=("stat",), aliases=NO_TORCH_KEYWORDS)
def std(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    unbiased: bool = True,
    keepdim: bool = False,
    name: str | None = None,
) -> jax.Array:
    """Standard deviation; of integers, the square root of their integer variance (``var``)
    in float32, as Paddle 3.3.1 computes it."""
    ax, ddof = norm_axis(axis, x.ndim), 1 if unbiased else 0
    if not _dt.is_inexact_np(x.dtype):
        return jnp.sqrt(_int_var(x, ax, ddof, keepdim).astype(jnp.float32))
    return jnp.std(x, axis=ax, ddof=ddof, keepdims=keepdim)


def _median_dim(args, kwargs):
    """``prebind`` of Paddle 3.3's median: PyTorch's ``dim=`` means ``axis=`` with mode 'min'
    (values and indices) unless a mode is given."""
    if "dim" in kwargs:
        kwargs = dict(kwargs)
        kwargs["axis"] = kwargs.pop("dim")
        if "mode" not in kwargs and len(args) < 4:
            kwargs["mode"] = "min"
    return args, kwargs


@op("median", tensor_modules=("stat",), prebind=_median_dim)
def median(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    mode: str = "avg",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array | tuple[jax.Array, jax.Array]:
    """Median; mode 'min' takes the lower of the two middle values and, with a single axis,
    also returns its index."""
    if mode not in ("avg", "min"):
        raise ValueError(f"(InvalidArgument) median: mode must be 'avg' or 'min', but got {mode}.")
    if mode == "avg":  # integers and float16/bfloat16 give float32, as in Paddle 3.3.1
        if not _dt.is_inexact_np(x.dtype) or x.dtype in _dt.HALF:
            x = x.astype(jnp.float32)
        ax = norm_axis(axis, x.ndim)  # an axis out of range raises, as in Paddle
        if x.ndim == 0:  # keepdim keeps a 0-D result 0-D
            return x
        return jnp.median(x, axis=ax, keepdims=keepdim)
    if axis is None:
        v, _ = _lower_median(x.reshape(-1), 0)
        return v.reshape([1] * x.ndim) if keepdim else v
    ax = norm_axis(axis, x.ndim)
    ax = ax[0] if ax else 0
    if x.ndim == 0:
        return x, jnp.zeros((), jnp.int64)
    v, i = _lower_median(x, ax)
    if keepdim:
        v, i = jnp.expand_dims(v, ax), jnp.expand_dims(i, ax)
    return v, i


def _lower_median(x: jax.Array, ax: int) -> tuple[jax.Array, jax.Array]:
    """The lower middle value along ``ax`` and its index, in x's dtype; where the slice has a
    NaN, NaN and the index of its first NaN (as Paddle)."""
    order = jnp.argsort(jax.lax.stop_gradient(x), axis=ax, stable=True)
    k = (x.shape[ax] - 1) // 2
    idx = jnp.take(order, jnp.asarray([k]), axis=ax)
    v = jnp.take_along_axis(x, idx, axis=ax)
    if _dt.is_inexact_np(x.dtype):
        nan = jnp.isnan(x)
        has_nan = jnp.any(nan, axis=ax, keepdims=True)
        v = jnp.where(has_nan, jnp.nan, v)
        idx = jnp.where(has_nan, jnp.argmax(nan, axis=ax, keepdims=True), idx)
    return jnp.squeeze(v, ax), jnp.squeeze(idx, ax).astype(jnp.int64)


@op("cumsum", amp="black", inplace="cumsum_", aliases=_DIM)
def cumsum(
    x: jax.Array,
    axis: int | None = None,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    if axis is None:
        x, axis = x.reshape(-1), 0
    if dtype is None and x.dtype == jnp.int32:
        dtype = "int64"  # Paddle accumulates int32 in int64
    dt = None if dtype is None else _dt.to_dtype(dtype).np
    if x.ndim == 0:  # axis 0 or -1 of a 0-D tensor: itself, as in Paddle
        check_0d_axis(axis)
        return x.astype(dt or x.dtype)
    return jnp.cumsum(x, axis=int(axis), dtype=dt)


def _cumprod_inplace(x, dim=None, dtype=None, name=None):  # Paddle's cumprod_: dtype positional
    pass


@op("cumprod", amp="black", inplace="cumprod_", inplace_signature=_cumprod_inplace)
def cumprod(
    x: jax.Array,
    dim: int | None = None,
    *,
    dtype: DTypeLike | None = None,
    out: Tensor | None = None,
    name: str | None = None,
) -> jax.Array:
    if dim is None:
        x, dim = x.reshape(-1), 0
    dt = None if dtype is None else _dt.to_dtype(dtype).np
    if x.ndim == 0:  # Paddle 3.3.1 takes dim 0 only (its -1 check counts from rank 0)
        if dim != 0:
            raise ValueError(
                "(InvalidArgument) The input dim of CumprodOp should be larger than the "
                f"opposite rank of input x which is 0.But received dim={dim}"
                if dim == -1
                else "(InvalidArgument) Attr(axis) value should be in range [-1, 0] when input "
                "is 0D Tensor "
            )
        return x.astype(dt or x.dtype)
    return jnp.cumprod(x, axis=int(dim), dtype=dt)


@op("all", differentiable=False, aliases=_DIM)
def all(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:  # noqa: A001
    return jnp.all(x, axis=norm_axis(axis, x.ndim), keepdims=keepdim)


@op("any", differentiable=False, aliases=_DIM)
def any(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:  # noqa: A001
    return jnp.any(x, axis=norm_axis(axis, x.ndim), keepdims=keepdim)


@op("count_nonzero", differentiable=False, aliases=NO_TORCH_KEYWORDS)
def count_nonzero(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> jax.Array:
    return jnp.count_nonzero(x, axis=norm_axis(axis, x.ndim), keepdims=keepdim).astype(jnp.int64)
