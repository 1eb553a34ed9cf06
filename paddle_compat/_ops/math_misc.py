"""Cumulative and structural math: cummax/cummin/logcumsumexp, diff, trapezoid, add_n,
multiplex, renorm, reduce_as, take, isin, vander, cartesian_prod, combinations, baddbmm."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._core import dtype as _dt
from .._core.dtype import DTypeLike
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor
from .manipulation import axis_of
from .reduction import check_0d_axis

_DIM = {"dim": "axis"}  # Paddle 3.3 also takes PyTorch's dim= for axis


def _float_in(x):
    if not _dt.is_inexact_np(x.dtype):
        return x.astype(_dt.default_float().np)
    return x


# -- cumulative ---------------------------------------------------------------------------------
def _cum_extreme(x, axis, dtype, greater: bool):
    if x.ndim == 0 and axis is not None:  # axis 0 or -1 of a 0-D tensor: 0-D results (Paddle)
        check_0d_axis(axis)
        v, i = _cum_extreme(x, None, dtype, greater)
        return v.reshape(()), i.reshape(())
    if axis is None:
        x, ax = x.reshape(-1), 0
    else:
        if not -x.ndim <= axis < x.ndim:
            raise IndexError(
                f"(OutOfRange) axis {axis} is out of range: expected in [{-x.ndim}, {x.ndim})."
            )
        ax = axis % x.ndim
    idx = lax.broadcasted_iota(jnp.int64, x.shape, ax)

    def combine(a, b):
        (va, ia), (vb, ib) = a, b
        take_b = (vb >= va) if greater else (vb <= va)
        take_b = take_b | jnp.isnan(vb) if jnp.issubdtype(x.dtype, jnp.floating) else take_b
        return jnp.where(take_b, vb, va), jnp.where(take_b, ib, ia)

    xs = lax.stop_gradient(x)
    _, ind = lax.associative_scan(combine, (xs, idx), axis=ax)
    return jnp.take_along_axis(x, ind, axis=ax), ind.astype(_dt.to_dtype(dtype).np)


def _check_index_dtype(dtype, what):
    if _dt.to_dtype(dtype) not in (_dt.int32, _dt.int64):
        raise ValueError(
            f"(InvalidArgument) {what}: dtype of indices must be int32 or int64, "
            f"but received {_dt.to_dtype(dtype).name}."
        )


@op("cummax", aliases=NO_TORCH_KEYWORDS)
def cummax(
    x: jax.Array, axis: int | None = None, dtype: DTypeLike = "int64", name: str | None = None
) -> tuple[jax.Array, jax.Array]:
    """Running maximum along ``axis`` and the index where it was reached (last on ties)."""
    _check_index_dtype(dtype, "cummax")
    return _cum_extreme(x, axis, dtype, True)


@op("cummin", aliases=NO_TORCH_KEYWORDS)
def cummin(
    x: jax.Array, axis: int | None = None, dtype: DTypeLike = "int64", name: str | None = None
) -> tuple[jax.Array, jax.Array]:
    """Running minimum along ``axis`` and the index where it was reached (last on ties)."""
    _check_index_dtype(dtype, "cummin")
    return _cum_extreme(x, axis, dtype, False)


@op("logcumsumexp", aliases=NO_TORCH_KEYWORDS)
def logcumsumexp(
    x: jax.Array, axis: int | None = None, dtype: DTypeLike | None = None, name: str | None = None
) -> jax.Array:
    """log(cumsum(exp(x))) along ``axis`` (flattened when None), computed stably."""
    if dtype is not None:
        x = x.astype(_dt.to_dtype(dtype).np)
    x = _float_in(x)
    if axis is None:
        x, ax = x.reshape(-1), 0
    else:
        ax = axis_of(axis, x.ndim)
    if x.ndim == 0:
        return x
    return lax.cumlogsumexp(x, axis=ax)


@op("diff", tensors=("x", "prepend", "append"), aliases=_DIM)
def diff(
    x: jax.Array,
    n: int = 1,
    axis: int = -1,
    prepend: jax.Array | None = None,
    append: jax.Array | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    """n-th forward difference along ``axis`` (bool: logical xor)."""
    ax = axis_of(axis, x.ndim)
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = jnp.concatenate([jnp.asarray(p).astype(x.dtype) for p in parts], axis=ax)
    for _ in range(n):
        if x.shape[ax] == 0:
            break
        a = lax.slice_in_dim(x, 1, x.shape[ax], axis=ax)
        b = lax.slice_in_dim(x, 0, x.shape[ax] - 1, axis=ax)
        x = jnp.logical_xor(a, b) if x.dtype == jnp.bool_ else a - b
    return x


def _trap_parts(y, x, dx, axis):
    if x is not None and dx is not None:
        raise ValueError(
            "(InvalidArgument) trapezoid: Not permitted to specify both x and dx input args."
        )
    if not jnp.issubdtype(y.dtype, jnp.floating):
        raise TypeError(
            f"(InvalidType) trapezoid: the dtype of y must be float16, float32 "
            f"or float64, but got {_dt.to_dtype(y.dtype).name}."
        )
    ax = axis_of(axis, y.ndim)
    n = y.shape[ax]
    avg = (lax.slice_in_dim(y, 1, n, axis=ax) + lax.slice_in_dim(y, 0, n - 1, axis=ax)) / 2
    if x is not None:
        x = x.astype(y.dtype)
        if x.ndim == 1:
            d = x[1:] - x[:-1]
            shape = [1] * y.ndim
            shape[ax] = n - 1
            d = d.reshape(shape)
        else:
            xa = axis_of(axis, x.ndim)
            d = lax.slice_in_dim(x, 1, n, axis=xa) - lax.slice_in_dim(x, 0, n - 1, axis=xa)
        return avg * d, ax
    return avg * jnp.asarray(1.0 if dx is None else dx, y.dtype), ax


@op("trapezoid", tensors=("y", "x"), aliases={"input": "y", "other": None})
def trapezoid(
    y: jax.Array,
    x: jax.Array | None = None,
    dx: float | None = None,
    axis: int = -1,
    name: str | None = None,
) -> jax.Array:
    """Integral of y along ``axis`` by the trapezoid rule (sample points x or spacing dx)."""
    parts, ax = _trap_parts(y, x, dx, axis)
    return jnp.sum(parts, axis=ax)


@op("cumulative_trapezoid", tensors=("y", "x"), aliases={"input": "y", "other": None})
def cumulative_trapezoid(
    y: jax.Array,
    x: jax.Array | None = None,
    dx: float | None = None,
    axis: int = -1,
    name: str | None = None,
) -> jax.Array:
    """Running trapezoid-rule integral of y along ``axis``."""
    parts, ax = _trap_parts(y, x, dx, axis)
    return jnp.cumsum(parts, axis=ax)


# -- combining tensors ------------------------------------------------------------------------
@op("add_n", tensors=("inputs",), method=True)
def add_n(inputs: jax.Array | Sequence[jax.Array], name: str | None = None) -> jax.Array:
    """Elementwise sum of a list of Tensors of one shape and dtype."""
    if not isinstance(inputs, list | tuple):
        return inputs
    if len(inputs) == 0:
        raise ValueError("(InvalidArgument) add_n: inputs should not be an empty list.")
    out = inputs[0]
    for a in inputs[1:]:
        if a.shape != out.shape:
            raise ValueError(
                f"(InvalidArgument) add_n: all inputs must have the same shape, "
                f"but got {list(out.shape)} and {list(a.shape)}."
            )
        out = out + a
    return out


@op("multiplex", tensors=("inputs", "index"))
def multiplex(inputs: Sequence[jax.Array], index: jax.Array, name: str | None = None) -> jax.Array:
    """Row i of the result is row i of ``inputs[index[i]]``."""
    if len(inputs) < 2:
        raise ValueError(
            "(InvalidArgument) multiplex: inputs must be a list of at least 2 Tensors."
        )
    if index.dtype != jnp.int32:
        raise ValueError(
            f"(InvalidArgument) multiplex: index must be an int32 Tensor, but "
            f"got {_dt.to_dtype(index.dtype).name}."
        )
    stacked = jnp.stack(inputs)
    rows = jnp.arange(stacked.shape[1])
    return stacked[index.reshape(-1).astype(jnp.int32), rows]


@op("renorm", amp="black", inplace="renorm_", aliases=NO_TORCH_KEYWORDS)
def renorm(x: jax.Array, p: float, axis: int, max_norm: float) -> jax.Array:
    """Scale each slice along ``axis`` whose p-norm exceeds ``max_norm`` down to max_norm."""
    ax = axis_of(axis, x.ndim)
    red = tuple(d for d in range(x.ndim) if d != ax)
    norm = jnp.sum(jnp.abs(x) ** p, axis=red, keepdims=True) ** (1.0 / p)
    scale = jnp.where(norm > max_norm, max_norm / (norm + 1e-7), 1.0).astype(x.dtype)
    return x * scale


@op("reduce_as", tensors=("x", "target"), aliases=NO_TORCH_KEYWORDS)
def reduce_as(x: jax.Array, target: jax.Array, name: str | None = None) -> jax.Array:
    """Sum ``x`` over the dims broadcast against ``target`` so it takes target's shape."""
    lead = x.ndim - target.ndim
    if lead < 0:
        raise ValueError(
            f"(InvalidArgument) reduce_as: the rank of x ({x.ndim}) must be >= "
            f"the rank of target ({target.ndim})."
        )
    axes = list(range(lead))
    for i, t in enumerate(target.shape):
        if t == 1 and x.shape[lead + i] != 1:
            axes.append(lead + i)
        elif t != x.shape[lead + i]:
            raise ValueError(
                f"(InvalidArgument) reduce_as: shape {list(x.shape)} cannot be "
                f"reduced to {list(target.shape)}."
            )
    out = jnp.sum(x, axis=tuple(axes), keepdims=True) if axes else x
    return out.reshape(target.shape)


@op("_take", tensors=("x", "index"), namespaces=(), method=None)
def _take(x, index, mode="raise"):
    flat = x.reshape(-1)
    n = flat.shape[0]
    idx = index.astype(jnp.int64)
    if mode == "wrap":
        idx = jnp.remainder(idx, n)
    elif mode == "clip":
        idx = jnp.clip(idx, 0, n - 1)
    else:  # 'raise': checked on the host; one wrap for negatives, as Paddle
        idx = jnp.remainder(jnp.where(idx < 0, idx + n, idx), n)
    return jnp.take(flat, idx, mode="clip")


@op("take", composite=True, aliases=NO_TORCH_KEYWORDS)
def take(x: Tensor, index: Tensor, mode: str = "raise", name: str | None = None) -> Tensor:
    """Elements of flattened ``x`` at ``index`` (mode 'raise', 'wrap' or 'clip')."""
    from .._core import runtime_checks
    from .._core.tensor import Tensor

    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(
            f"(InvalidArgument) take: 'mode' must be one of 'raise', 'wrap' or "
            f"'clip', but received {mode}."
        )
    if not isinstance(index, Tensor) or not jnp.issubdtype(index._value.dtype, jnp.integer):
        raise TypeError("(InvalidType) take: the dtype of 'index' must be int32 or int64.")
    if mode == "raise":  # Paddle adds numel to a negative index, then checks [-numel, numel)
        i = index._value
        runtime_checks.check_in_range(
            jnp.where(i < 0, i + x.size, i),
            -x.size,
            x.size,
            ValueError,
            "(InvalidArgument) Variable value (index) of OP(index_select) expected >= {lo} and "
            "< {hi}, but got {bad}. Please check input value.",
        )
    return _take(x, index, mode)


@op("isin", tensors=("x", "test_x"), differentiable=False, aliases=NO_TORCH_KEYWORDS)
def isin(
    x: jax.Array,
    test_x: jax.Array,
    assume_unique: bool = False,
    invert: bool = False,
    name: str | None = None,
) -> jax.Array:
    """True where an element of x is in ``test_x``. With ``assume_unique`` and a large
    ``test_x`` Paddle finds equal neighbours in one stable sort of both inputs, which is right
    only for unique inputs: the same algorithm here, so non-unique inputs give Paddle's
    (documented) wrong answer too."""
    # Paddle (as PyTorch) compares each pair when test_x is small for x's size, else sorts
    if not assume_unique or test_x.size < int(10.0 * np.float32(x.size) ** np.float32(0.145)):
        return jnp.isin(x, test_x, invert=invert)
    flat = jnp.concatenate([x.reshape(-1), test_x.reshape(-1).astype(x.dtype)])
    order = jnp.argsort(flat, stable=True)
    s = flat[order]
    dup = jnp.concatenate([s[1:] == s[:-1], jnp.zeros((1,), bool)])
    if invert:
        dup = ~dup
    mask = jnp.zeros_like(dup).at[order].set(dup)
    return mask[: x.size].reshape(x.shape)


@op("vander", aliases=NO_TORCH_KEYWORDS)
def vander(
    x: jax.Array, n: int | None = None, increasing: bool = False, name: str | None = None
) -> jax.Array:
    """Vandermonde matrix of the 1-D ``x`` (columns are powers)."""
    if x.ndim != 1:
        raise ValueError(
            f"(InvalidArgument) vander: x must be a 1-D Tensor, but got shape {list(x.shape)}."
        )
    if n is not None and n < 0:
        raise ValueError("(InvalidArgument) vander: n must be non-negative.")
    return jnp.vander(x, N=n, increasing=increasing)


@op("cartesian_prod", tensors=("x",), method=None, aliases=NO_TORCH_KEYWORDS)
def cartesian_prod(x: Sequence[jax.Array], name: str | None = None) -> jax.Array:
    """Cartesian product of 1-D Tensors (rows are tuples)."""
    xs = list(x)
    for a in xs:
        if a.ndim != 1:
            raise ValueError(
                f"(InvalidArgument) cartesian_prod: each input must be 1-D, but "
                f"got shape {list(a.shape)}."
            )
    if len(xs) == 1:
        return xs[0]
    grids = jnp.meshgrid(*xs, indexing="ij")
    return jnp.stack([g.reshape(-1) for g in grids], axis=1)


@op("combinations", aliases=NO_TORCH_KEYWORDS)
def combinations(
    x: jax.Array, r: int = 2, with_replacement: bool = False, name: str | None = None
) -> jax.Array:
    """All length-r combinations of the elements of 1-D ``x`` (rows)."""
    if x.ndim != 1:
        raise TypeError(
            f"(InvalidArgument) combinations: x must be 1-D, but got shape {list(x.shape)}."
        )
    if r < 0:
        raise ValueError(f"(InvalidArgument) combinations: r must be non-negative, but got {r}.")
    gen = itertools.combinations_with_replacement if with_replacement else (itertools.combinations)
    idx = np.asarray(list(gen(range(x.shape[0]), r)), np.int64).reshape(-1, r)
    if r == 0:
        return jnp.zeros((0,), x.dtype)
    return x[idx] if idx.size else jnp.zeros((0, r), x.dtype)


@op(
    "baddbmm",
    tensors=("input", "x", "y"),
    aliases={"input": "input", "other": None},
    inplace="baddbmm_",
)
def baddbmm(
    input: jax.Array,
    x: jax.Array,
    y: jax.Array,
    beta: float = 1.0,  # noqa: A002
    alpha: float = 1.0,
    name: str | None = None,
) -> jax.Array:
    """beta * input + alpha * (x @ y) for batches of matrices."""
    if x.ndim != 3 or y.ndim != 3:
        raise ValueError(
            f"(InvalidArgument) baddbmm: x and y must be 3-D, but got shapes "
            f"{list(x.shape)} and {list(y.shape)}."
        )
    if x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
        raise ValueError(
            f"(InvalidArgument) baddbmm: shapes {list(x.shape)} and "
            f"{list(y.shape)} cannot be batch-multiplied."
        )
    return beta * input + alpha * jnp.matmul(x, y)


# Paddle attaches broadcast_shape(s) to Tensor as plain functions: paddle.Tensor.broadcast_shape
# is callable with two shapes (on an instance, the Tensor is taken as x_shape: a TypeError)
def _shape_list(s, fn: str):
    if isinstance(s, Tensor) or not isinstance(s, Sequence):
        raise TypeError(
            f"{fn}(): incompatible function arguments: expected list[int] shapes, got "
            f"{type(s).__name__}"
        )
    return s


@op("_tensor_broadcast_shape", composite=True, tensors=(), namespaces=(), method="broadcast_shape")
def _tensor_broadcast_shape(x_shape: Sequence[int], y_shape: Sequence[int]) -> list[int]:
    """The shape two shapes broadcast to (``paddle.broadcast_shape``)."""
    from .._api_extra import broadcast_shape

    fn = "broadcast_shape"
    return broadcast_shape(_shape_list(x_shape, fn), _shape_list(y_shape, fn))


@op(
    "_tensor_broadcast_shapes", composite=True, tensors=(), namespaces=(), method="broadcast_shapes"
)
def _tensor_broadcast_shapes(*shapes: Sequence[int]) -> list[int]:
    """The shape all ``shapes`` broadcast to (``paddle.broadcast_shapes``)."""
    from .._api_extra import broadcast_shapes

    return broadcast_shapes(*(_shape_list(s, "broadcast_shapes") for s in shapes))
