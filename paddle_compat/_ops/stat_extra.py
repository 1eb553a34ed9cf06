"""More statistics: quantile/nanquantile, nanmedian, bincount, histogram,
histogram_bin_edges, histogramdd."""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core import trace_state
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor
from .reduction import norm_axis

_DIM = {"dim": "axis"}  # Paddle 3.3 also takes PyTorch's dim= for axis

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _q_list(q, what):
    if isinstance(q, int | float):
        qs, scalar = [float(q)], True
    else:
        qs, scalar = [float(v) for v in np.asarray(q, dtype=np.float64).reshape(-1)], False
        if not qs:
            raise ValueError(f"(InvalidArgument) {what}: q should not be empty.")
    for v in qs:
        if not 0.0 <= v <= 1.0:
            raise ValueError(f"(InvalidArgument) {what}: q should be in range [0, 1], but got {v}.")
    return qs, scalar


def _quantile(x, q, axis, keepdim, interpolation, fn, what):
    if interpolation not in _METHODS:
        raise ValueError(
            f"(InvalidArgument) {what}: interpolation must be one of "
            f"{', '.join(_METHODS)}, but got {interpolation}."
        )
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(
            f"(InvalidType) {what}: the dtype of x must be float32 or float64, "
            f"but received {_dt.to_dtype(x.dtype).name}."
        )
    qs, scalar = _q_list(q, what)
    ax = norm_axis(axis, x.ndim)
    out = fn(x, jnp.asarray(qs, x.dtype), axis=ax, keepdims=keepdim, method=interpolation)
    return out[0] if scalar else out


@op("quantile", aliases=_DIM)
def quantile(
    x: jax.Array,
    q: float | Sequence[float],
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    interpolation: str = "linear",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    """The q-th quantiles of x along ``axis`` (q: a number, list or Tensor in [0, 1])."""
    return _quantile(x, q, axis, keepdim, interpolation, jnp.quantile, "quantile")


@op("nanquantile", aliases=NO_TORCH_KEYWORDS)
def nanquantile(
    x: jax.Array,
    q: float | Sequence[float],
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    interpolation: str = "linear",
) -> jax.Array:
    """Like quantile, ignoring NaNs."""
    return _quantile(x, q, axis, keepdim, interpolation, jnp.nanquantile, "nanquantile")


@op("nanmedian", aliases=NO_TORCH_KEYWORDS)
def nanmedian(
    x: jax.Array,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    mode: str = "avg",
    name: str | None = None,
) -> jax.Array | tuple[jax.Array, jax.Array]:
    """Median ignoring NaNs; mode 'min' takes the lower of the two middle values and, with an
    axis, also returns its index (-1 where a slice is all NaN)."""
    if mode not in ("avg", "min"):
        raise ValueError(
            f"(InvalidArgument) nanmedian: mode must be 'avg' or 'min', but got {mode}."
        )
    ax = norm_axis(axis, x.ndim)  # an axis out of range raises, as in Paddle
    if mode == "avg":
        if x.ndim == 0:  # keepdim keeps a 0-D result 0-D
            return x
        if not _dt.is_inexact_np(x.dtype):
            return _int_median(x, ax or tuple(range(x.ndim)), keepdim)
        return jnp.nanmedian(x, axis=ax, keepdims=keepdim)
    if axis is None or isinstance(axis, list | tuple):
        axes = ax or tuple(range(x.ndim))
        v, _ = _lower_nanmedian(_axes_last(x, axes), -1)
        return _kept(v, x, axes) if keepdim else v
    ax = ax[0] if ax else 0
    if x.ndim == 0:
        return x, jnp.zeros((), jnp.int64)
    v, i = _lower_nanmedian(x, ax)
    if keepdim:
        v, i = jnp.expand_dims(v, ax), jnp.expand_dims(i, ax)
    return v, i


def _axes_last(x, axes):
    """``x`` with ``axes`` moved last and flattened into one."""
    rest = [d for d in range(x.ndim) if d not in axes]
    return jnp.transpose(x, rest + list(axes)).reshape([x.shape[d] for d in rest] + [-1])


def _kept(v, x, axes):
    """A reduction ``v`` of ``x`` over ``axes`` with those axes kept as size 1."""
    return v.reshape([1 if d in axes else x.shape[d] for d in range(x.ndim)])


def _int_median(x, axes, keepdim):
    """The median of an integer tensor over ``axes`` in its own dtype, as Paddle's nanmedian
    gives it: the two middle values' sum halved toward zero."""
    s = jnp.sort(_axes_last(x, axes), axis=-1)
    n = s.shape[-1]
    v = jax.lax.div(s[..., (n - 1) // 2] + s[..., n // 2], jnp.asarray(2, x.dtype))
    return _kept(v, x, axes) if keepdim else v


def _lower_nanmedian(x, ax):
    order = jnp.argsort(jax.lax.stop_gradient(x), axis=ax)  # NaNs sort last
    cnt = jnp.sum(~jnp.isnan(x), axis=ax, keepdims=True)
    k = jnp.maximum((cnt - 1) // 2, 0)
    idx = jnp.take_along_axis(order, k, axis=ax)
    v = jnp.take_along_axis(x, idx, axis=ax)
    if _dt.is_inexact_np(x.dtype):  # integers have no NaN: their values keep their dtype
        none = cnt == 0
        v = jnp.where(none, jnp.nan, v)
        idx = jnp.where(none, -1, idx)
    return jnp.squeeze(v, ax), jnp.squeeze(idx, ax).astype(jnp.int64)


# -- counting -----------------------------------------------------------------------------------
@op("_bincount", tensors=("x", "weights"), namespaces=(), method=None, differentiable=False)
def _bincount(x, weights, length):
    if weights is None:
        return jnp.zeros((length,), jnp.int64).at[x].add(1)
    w = weights
    if not jnp.issubdtype(w.dtype, jnp.floating):
        w = w.astype(jnp.float64)
    return jnp.zeros((length,), w.dtype).at[x].add(w)


@op("bincount", tensor_modules=("linalg",), composite=True, aliases=NO_TORCH_KEYWORDS)
def bincount(
    x: Tensor, weights: Tensor | None = None, minlength: int = 0, name: str | None = None
) -> Tensor:
    """Count occurrences of each non-negative int in the 1-D ``x`` (weighted sums with
    ``weights``); the length is max(x) + 1 or ``minlength``."""
    if not jnp.issubdtype(x._value.dtype, jnp.integer):
        raise TypeError(
            f"(InvalidType) bincount: the dtype of x must be int32 or int64, "
            f"but received {x.dtype.name}."
        )
    if x.ndim != 1:
        raise ValueError(
            f"(InvalidArgument) bincount: x must be 1-D, but got shape {list(x.shape)}."
        )
    if minlength < 0:
        raise ValueError("(InvalidArgument) bincount: minlength must be non-negative.")
    if weights is not None and list(weights.shape) != list(x.shape):
        raise ValueError(
            f"(InvalidArgument) bincount: weights shape {list(weights.shape)} "
            f"must match x shape {list(x.shape)}."
        )
    trace_state.check_concrete(x, "paddle.bincount (its output length depends on max(x))")
    a = np.asarray(x._value)
    if a.size and a.min() < 0:
        raise ValueError("(InvalidArgument) The elements in input tensor must be non-negative ints")
    length = max(int(a.max()) + 1 if a.size else 0, int(minlength))
    return _bincount(x, weights, length)


def _range(x, lo, hi, what):
    """Histogram range: [min, max] given, or the data's range when both are 0."""
    if lo > hi:
        raise ValueError(
            f"(InvalidArgument) {what}: max must be larger or equal to min, but "
            f"got min={lo}, max={hi}."
        )
    xf = x.astype(jnp.float32) if not jnp.issubdtype(x.dtype, jnp.floating) else x
    if lo == 0 and hi == 0:
        if x.size == 0:
            lo_v, hi_v = jnp.asarray(0.0, xf.dtype), jnp.asarray(0.0, xf.dtype)
        else:
            lo_v, hi_v = jnp.min(xf), jnp.max(xf)
    else:
        lo_v, hi_v = jnp.asarray(lo, xf.dtype), jnp.asarray(hi, xf.dtype)
    same = lo_v == hi_v
    return xf, jnp.where(same, lo_v - 0.5, lo_v), jnp.where(same, hi_v + 0.5, hi_v)


def _check_bins(bins, what):
    if not isinstance(bins, int) or bins < 1:
        raise ValueError(
            f"(InvalidArgument) {what}: bins must be a positive int, but got {bins!r}."
        )


@op(
    "histogram",
    tensor_modules=("linalg",),
    tensors=("input", "weight"),
    aliases={"input": "input", "x": "input"},
    differentiable=False,
)
def histogram(
    input: jax.Array,
    bins: int = 100,
    min: float = 0.0,
    max: float = 0.0,  # noqa: A002
    weight: jax.Array | None = None,
    density: bool = False,
    name: str | None = None,
) -> jax.Array:
    """Counts of ``input`` in ``bins`` equal-width bins over [min, max] (the data's range when
    both are 0); float with ``weight`` or ``density``."""
    _check_bins(bins, "histogram")
    if weight is not None and weight.dtype != input.dtype:
        raise ValueError("(InvalidArgument) histogram: weight must have the same dtype as input.")
    x, lo, hi = _range(input.reshape(-1), min, max, "histogram")
    idx = jnp.floor((x - lo) / (hi - lo) * bins).astype(jnp.int64)
    idx = jnp.where(x == hi, bins - 1, idx)
    inside = (x >= lo) & (x <= hi)
    idx = jnp.where(inside, idx, bins)  # an overflow slot dropped below
    if weight is not None:
        w = jnp.where(inside, weight.reshape(-1).astype(jnp.float32), 0)
        h = jnp.zeros((bins + 1,), jnp.float32).at[idx].add(w)[:bins]
    else:
        h = jnp.zeros((bins + 1,), jnp.int64).at[idx].add(1)[:bins]
    if density:
        width = (hi - lo).astype(jnp.float32) / bins
        h = h.astype(jnp.float32)
        return h / (jnp.sum(h) * width)
    return h


@op(
    "histogram_bin_edges",
    tensor_modules=("linalg",),
    tensors=("input",),
    aliases={"input": "input", "x": "input"},
    differentiable=False,
)
def histogram_bin_edges(
    input: jax.Array,
    bins: int = 100,
    min: float = 0.0,  # noqa: A002
    max: float = 0.0,
    name: str | None = None,
) -> jax.Array:
    """The ``bins + 1`` edges histogram would use."""
    _check_bins(bins, "histogram_bin_edges")
    _, lo, hi = _range(input.reshape(-1), min, max, "histogram_bin_edges")
    return jnp.linspace(lo, hi, bins + 1).astype(jnp.float32)


@op(
    "histogramdd",
    tensor_modules=("linalg",),
    tensors=("x", "weights"),
    differentiable=False,
    aliases=NO_TORCH_KEYWORDS,
)
def histogramdd(
    x: jax.Array,
    bins: int | Sequence[int] = 10,
    ranges: Sequence[float] | None = None,
    density: bool = False,
    weights: jax.Array | None = None,
    name: str | None = None,
) -> tuple[jax.Array, list[jax.Array]]:
    """D-dimensional histogram of the rows of x; returns (hist, list of edge Tensors)."""
    d = x.shape[-1]
    pts = x.reshape(-1, d)
    rng = None
    if ranges is not None:
        if len(ranges) != 2 * d:  # Paddle asserts this
            raise AssertionError(
                f"histogramdd: ranges must have 2 * D = {2 * d} elements, but got {len(ranges)}."
            )
        rng = [(float(ranges[2 * i]), float(ranges[2 * i + 1])) for i in range(d)]
    if isinstance(bins, list | tuple):
        for i, b in enumerate(bins):
            if not isinstance(b, int):
                raise ValueError(f"The type of {i}-th element in bins list must be int.")
    w = None if weights is None else weights.reshape(-1)
    if rng is None:
        lo, hi = jnp.min(pts, axis=0), jnp.max(pts, axis=0)
        nb = [bins] * d if isinstance(bins, int) else list(bins)
        edges = [
            b if not isinstance(b, int) else jnp.linspace(lo[i], hi[i], b + 1)
            for i, b in enumerate(nb)
        ]
        h, edges = jnp.histogramdd(pts, bins=edges, weights=w, density=density)
    else:
        h, edges = jnp.histogramdd(pts, bins=bins, range=rng, weights=w, density=density)
    return h.astype(x.dtype), [e.astype(x.dtype) for e in edges]
