"""Search and sort: topk, sort/argsort, kthvalue, mode, searchsorted/bucketize, index_sample,
and the data-dependent ops nonzero, masked_select, unique, unique_consecutive (host-side)."""

from __future__ import annotations

import builtins

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core import runtime_checks, trace_state
from .._core.dtype import DTypeLike
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor, to_device
from . import _std_sort

_DIM = {"dim": "axis"}  # Paddle 3.3 also takes PyTorch's dim= for axis

_NUMERIC = ("float16", "bfloat16", "float32", "float64", "int32", "int64")


def check_axis(axis: int, ndim: int, name: str) -> int:
    n = builtins.max(ndim, 1)
    if not -n <= axis < n:
        raise ValueError(
            f"(InvalidArgument) {name}: axis {axis} is out of range for a tensor of rank "
            f"{ndim}: expected in [{-n}, {n - 1}]."
        )
    return axis % n


def _static_int(v, what: str) -> int:
    if isinstance(v, Tensor):
        trace_state.check_concrete(v, what)
        return int(np.asarray(v._value).reshape(-1)[0])
    return int(v)


# -- sorting -----------------------------------------------------------------------------------
@op("_topk", dtypes=_NUMERIC, kernel="topk", namespaces=(), method=None)
def _topk(x, k, axis, largest, sorted):  # noqa: A002 - Paddle's name
    if k < 1:
        raise ValueError(f"(InvalidArgument) the k in topk must be >= 1, but received {k}.")
    if x.ndim == 0:
        if k != 1:
            raise ValueError(f"(InvalidArgument) k ({k}) of topk must be 1 for a 0-D tensor.")
        return x, jnp.zeros((), jnp.int64)
    axis = check_axis(-1 if axis is None else axis, x.ndim, "topk")
    if k > x.shape[axis]:
        raise ValueError(
            f"(InvalidArgument) k ({k}) of topk must be <= the size of axis {axis} "
            f"({x.shape[axis]})."
        )
    xm = jnp.moveaxis(x, axis, -1)
    if largest:
        _, idx = jax.lax.top_k(xm, k)
    else:
        idx = jnp.argsort(xm, axis=-1, stable=True)[..., :k]
    vals = jnp.take_along_axis(xm, idx, axis=-1)
    return jnp.moveaxis(vals, -1, axis), jnp.moveaxis(idx.astype(jnp.int64), -1, axis)


@op("topk", composite=True, aliases=_DIM)
def topk(
    x: Tensor,
    k: int | Tensor,
    axis: int | None = None,
    largest: bool = True,  # noqa: A002
    sorted: bool = True,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> tuple[Tensor, Tensor]:
    """The k largest (or smallest) entries along ``axis`` and their int64 indices."""
    values, indices = _topk(x, _static_int(k, "topk(k=Tensor)"), axis, bool(largest), bool(sorted))
    return values, indices


@op("sort", aliases=NO_TORCH_KEYWORDS)
def sort(
    x: jax.Array,
    axis: int = -1,
    descending: bool = False,
    stable: bool = False,
    name: str | None = None,
) -> jax.Array:
    """Sort along ``axis`` (NaN last ascending, first descending)."""
    if x.ndim == 0:
        return x
    axis = check_axis(axis, x.ndim, "sort")
    return jnp.sort(x, axis=axis, descending=bool(descending), stable=True)


_ARGSORT_DTYPES = ("uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")


@op("_argsort", namespaces=(), method=None, dtypes=_ARGSORT_DTYPES, kernel="argsort")
def _argsort(x, axis, descending):
    if x.ndim == 0:
        return jnp.zeros((), jnp.int64)
    axis = check_axis(axis, x.ndim, "argsort")
    return jnp.argsort(x, axis=axis, descending=bool(descending), stable=True).astype(jnp.int64)


_STD_SORT_MAX = 1 << 16  # elements: past this the emulated std::sort (Python) is too slow


@op("argsort", composite=True, aliases=_DIM)
def argsort(
    x: Tensor,
    axis: int = -1,
    descending: bool = False,
    stable: bool = False,
    name: str | None = None,
) -> Tensor:
    """int64 indices that sort ``x`` along ``axis``. ``stable``: equal values keep their
    order. Without it, equal values come in the order Paddle's CPU kernel (``std::sort``)
    leaves them, reproduced eagerly for CPU inputs of up to 65536 elements (stable order
    under to_static, on accelerators and for larger inputs)."""
    out = _argsort(x, axis, descending)
    if stable or len(x.shape) == 0 or x.size > _STD_SORT_MAX or x.size < 2:
        return out
    if trace_state.current() is not None or not trace_state.jax_idle():
        return out
    v = trace_state.read(x)
    if not all(d.platform == "cpu" for d in v.devices()):  # Paddle's GPU kernel is another sort
        return out
    a = np.moveaxis(np.asarray(v), axis, -1)
    if a.dtype.kind not in "biuf" or not _std_sort.has_ties(np.sort(a, axis=-1)):
        return out
    rows = a.reshape(-1, a.shape[-1])
    idx = np.array([_std_sort.argsort_row(r, bool(descending)) for r in rows], np.int64)
    idx = np.moveaxis(idx.reshape(a.shape), -1, axis)
    res = Tensor(to_device(idx, owned=True))
    res.stop_gradient = out.stop_gradient
    return res


@op("msort")
def msort(input: jax.Array, *, out: Tensor | None = None) -> jax.Array:  # noqa: A002
    """Sort along the first axis."""
    return jnp.sort(input, axis=0) if input.ndim else input


@op("_kthvalue", namespaces=(), method=None)
def _kthvalue(x, k, axis, keepdim):
    if k < 1:
        raise ValueError(f"(InvalidArgument) the k in kthvalue must be >= 1, but received {k}.")
    if x.ndim == 0:
        if k != 1:
            raise ValueError(f"(InvalidArgument) k ({k}) of kthvalue must be 1 for a 0-D tensor.")
        return x, jnp.zeros((), jnp.int64)
    axis = check_axis(-1 if axis is None else axis, x.ndim, "kthvalue")
    if k > x.shape[axis]:
        raise ValueError(
            f"(InvalidArgument) input of kthvalue must have >= {k} entries along axis {axis}, "
            f"got {x.shape[axis]}."
        )
    idx = jax.lax.slice_in_dim(jnp.argsort(x, axis=axis, stable=True), k - 1, k, axis=axis)
    vals = jnp.take_along_axis(x, idx, axis=axis)
    if not keepdim:
        vals, idx = jnp.squeeze(vals, axis), jnp.squeeze(idx, axis)
    return vals, idx.astype(jnp.int64)


@op("kthvalue", composite=True, aliases=NO_TORCH_KEYWORDS)
def kthvalue(
    x: Tensor, k: int, axis: int | None = None, keepdim: bool = False, name: str | None = None
) -> tuple[Tensor, Tensor]:
    """The k-th smallest entry (1-based) along ``axis`` and its int64 index."""
    return _kthvalue(x, int(k), axis, bool(keepdim))


@op("_mode", namespaces=(), method=None)
def _mode(x, axis, keepdim):
    if x.ndim == 0:
        return x, jnp.zeros((), jnp.int64)
    axis = check_axis(axis, x.ndim, "mode")
    xm = jnp.moveaxis(x, axis, -1)
    s = jnp.sort(xm, axis=-1)
    counts = jnp.sum(s[..., :, None] == s[..., None, :], axis=-1)
    # most frequent value; among ties the smallest (first in sorted order)
    v = jnp.take_along_axis(s, jnp.argmax(counts, axis=-1)[..., None], axis=-1)
    pos = jnp.arange(xm.shape[-1])
    idx = jnp.max(jnp.where(xm == v, pos, -1), axis=-1, keepdims=True)  # last occurrence
    vals = jnp.take_along_axis(xm, idx, axis=-1)
    vals, idx = jnp.moveaxis(vals, -1, axis), jnp.moveaxis(idx, -1, axis)
    if not keepdim:
        vals, idx = jnp.squeeze(vals, axis), jnp.squeeze(idx, axis)
    return vals, idx.astype(jnp.int64)


@op("mode", composite=True, aliases=NO_TORCH_KEYWORDS)
def mode(
    x: Tensor, axis: int = -1, keepdim: bool = False, name: str | None = None
) -> tuple[Tensor, Tensor]:
    """The most frequent value along ``axis`` (smallest among ties) and its last index."""
    return _mode(x, int(axis), bool(keepdim))


# -- searching ---------------------------------------------------------------------------------
def _searchsorted(seq, values, right, out_int32):
    side = "right" if right else "left"
    dt = jnp.result_type(seq.dtype, values.dtype)
    seq, values = seq.astype(dt), values.astype(dt)
    if seq.ndim <= 1:
        out = jnp.searchsorted(seq, values, side=side)
    else:
        if seq.shape[:-1] != values.shape[:-1]:
            raise RuntimeError(
                f"(Unavailable) The leading dimensions of sorted_sequence {list(seq.shape)} and "
                f"values {list(values.shape)} must match (or sorted_sequence must be 1-D)."
            )
        s2 = seq.reshape(-1, seq.shape[-1])
        v2 = values.reshape(-1, values.shape[-1])
        out = jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=side))(s2, v2)
        out = out.reshape(values.shape)
    return out.astype(jnp.int32 if out_int32 else jnp.int64)


@op(
    "searchsorted",
    tensors=("sorted_sequence", "values", "sorter"),
    method=None,
    differentiable=False,
)
def searchsorted(
    sorted_sequence: jax.Array,
    values: jax.Array,
    out_int32: bool = False,
    right: bool = False,
    name: str | None = None,
    *,
    side: str | None = None,
    out: Tensor | None = None,
    sorter: jax.Array | None = None,
) -> jax.Array:
    """Insertion indices of ``values`` in the innermost dimension of ``sorted_sequence``;
    ``side="right"`` means ``right=True`` (as in Paddle 3.3.1, any other ``side`` leaves
    ``right`` as given)."""
    right = right or side == "right"
    if sorter is not None:
        sorted_sequence = jnp.take_along_axis(sorted_sequence, sorter.astype(jnp.int64), axis=-1)
    return _searchsorted(sorted_sequence, values, right, out_int32)


@op("bucketize", tensors=("x", "sorted_sequence"), differentiable=False)
def bucketize(
    x: jax.Array,
    sorted_sequence: jax.Array,
    out_int32: bool = False,
    right: bool = False,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    """Index of the bucket of each ``x`` given 1-D boundaries ``sorted_sequence``."""
    if sorted_sequence.ndim != 1:
        raise ValueError(
            f"sorted_sequence tensor must be 1 dimension, but got dim {sorted_sequence.ndim}"
        )
    return _searchsorted(sorted_sequence, x, right, out_int32)


@op(
    "index_sample",
    tensors=("x", "index"),
    check=lambda v: runtime_checks.check_index(
        v["index"],
        v["x"],
        1 if len(v["x"].shape) == 2 else None,
        ValueError,
        "(InvalidArgument) Variable value (index) of OP(index_sample) expected >= {lo} and "
        "< {hi}, but got {bad}. Please check input value.",
        nonneg=True,
    ),
    aliases=NO_TORCH_KEYWORDS,
)
def index_sample(x: jax.Array, index: jax.Array) -> jax.Array:
    """out[i, j] = x[i, index[i, j]] for 2-D ``x`` and ``index``."""
    if index.ndim != 2 or x.ndim != 2:
        raise ValueError(
            f"(InvalidArgument) index_sample expects 2-D x and index, got x rank {x.ndim} and "
            f"index rank {index.ndim} (index shape {list(index.shape)})."
        )
    if index.dtype not in (jnp.int32, jnp.int64):
        raise ValueError(
            f"(InvalidArgument) Input(Index) holds the wrong type, it holds "
            f"{_dt.to_dtype(index.dtype).name}, but desires to be int32 or int64"
        )
    if x.shape[0] != index.shape[0]:
        raise ValueError(
            f"(InvalidArgument) Inputs(X)'s value of dimension 0 must be the same as "
            f"Inputs(Index)'s, but got {x.shape[0]} and {index.shape[0]}."
        )
    return jnp.take_along_axis(x, index.astype(jnp.int64), axis=1, mode="clip")


# -- data-dependent output shapes (host side; not traceable) ------------------------------------
_STATIC_HINT = {
    "paddle.nonzero": "use a boolean mask with paddle.where(cond, x, y) instead",
    "paddle.masked_select": "use paddle.where(mask, x, paddle.zeros_like(x)) (masking) instead",
    "paddle.unique": "compute it outside the compiled function",
    "paddle.unique_consecutive": "compute it outside the compiled function",
}


def _host(t: Tensor, what: str) -> np.ndarray:
    """The concrete value of ``t``; under to_static a clear error naming a static alternative."""
    if isinstance(t._value, jax.core.Tracer):
        raise trace_state.DataDependentError(
            f"{what} has a data-dependent output shape, so it cannot run inside "
            f"paddle.jit.to_static (input shape {list(t._value.shape)}): "
            f"{_STATIC_HINT[what]}, or call the function with full_graph=False."
        )
    return np.asarray(trace_state.read(t))


def _t(a: np.ndarray, dtype=None) -> Tensor:
    return Tensor(to_device(np.asarray(a) if dtype is None else a.astype(dtype)))


@op("nonzero", composite=True)
def nonzero(
    x: Tensor, as_tuple: bool = False, *, out: Tensor | None = None
) -> Tensor | tuple[Tensor, ...]:
    """int64 coordinates of the non-zero entries: [N, ndim], or a tuple of [N] per axis."""
    a = _host(x, "paddle.nonzero")
    if a.ndim == 0:
        raise ValueError(
            "(InvalidArgument) Input(Condition) of nonzero should have at least 1 dimension, "
            "but got a 0-D tensor."
        )
    coords = np.nonzero(a)
    if as_tuple:
        return tuple(_t(c, np.int64) for c in coords)
    return _t(np.stack(coords, axis=1).reshape(-1, a.ndim), np.int64)


@op("argwhere", composite=True)
def argwhere(input: Tensor) -> Tensor:  # noqa: A002
    """Same as ``nonzero(input)``: int64 coordinates [N, ndim] of the non-zero entries."""
    return nonzero(input)


@op("_gather_flat", tensors=("x", "idx"), namespaces=(), method=None)
def _gather_flat(x, idx, shape):
    return jnp.broadcast_to(x, shape).reshape(-1)[idx]


@op("masked_select", tensors=("x", "mask"), composite=True)
def masked_select(
    x: Tensor, mask: Tensor, name: str | None = None, *, out: Tensor | None = None
) -> Tensor:
    """1-D tensor of the entries of ``x`` where the (broadcast) bool ``mask`` is True."""
    m = _host(mask, "paddle.masked_select")
    if m.dtype != np.bool_:
        raise ValueError(
            f"(InvalidArgument) masked_select expects a bool mask, got "
            f"{_dt.to_dtype(m.dtype).name}."
        )
    xs = tuple(x.shape)
    try:
        shape = np.broadcast_shapes(xs, m.shape)
    except ValueError:
        raise RuntimeError(
            f"(PreconditionNotMet) The shape of x {list(xs)} and mask {list(m.shape)} of "
            f"masked_select must be broadcastable."
        ) from None
    shape = shape if shape else (1,)
    idx = np.flatnonzero(np.broadcast_to(m, shape))
    return _gather_flat(x, Tensor(to_device(idx.astype(np.int64), owned=True)), shape)


def _index_dtype(dtype):
    d = _dt.to_dtype(dtype)
    if d.name not in ("int32", "int64"):
        raise TypeError(f"(InvalidType) dtype of unique indices must be int32 or int64, got {d}")
    return d.np


@op("unique", tensor_modules=("manipulation",), composite=True, aliases=NO_TORCH_KEYWORDS)
def unique(
    x: Tensor,
    return_index: bool = False,
    return_inverse: bool = False,  # noqa: A002
    return_counts: bool = False,
    axis: int | None = None,
    dtype: DTypeLike = "int64",
    sorted: bool = True,
    name: str | None = None,
) -> Tensor | tuple[Tensor, ...]:
    """Sorted unique values (with first indices, inverse map and counts on request)."""
    a = _host(x, "paddle.unique")
    idt = _index_dtype(dtype)
    if axis is None:
        a = a.reshape(-1)
        u, index, inverse, counts = np.unique(a, True, True, True)
    else:
        axis = check_axis(int(axis), a.ndim, "unique")
        u, index, inverse, counts = np.unique(a, True, True, True, axis=axis)
    outs = [_t(u)]
    if return_index:
        outs.append(_t(index, idt))
    if return_inverse:
        outs.append(_t(inverse.reshape(-1), idt))
    if return_counts:
        outs.append(_t(counts, idt))
    return outs[0] if len(outs) == 1 else tuple(outs)


@op("unique_consecutive", tensor_modules=("manipulation",), composite=True, aliases=_DIM)
def unique_consecutive(
    x: Tensor,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    dtype: DTypeLike = "int64",
    name: str | None = None,
) -> Tensor | tuple[Tensor, ...]:
    """Collapse runs of equal consecutive values (or slices along ``axis``)."""
    a = _host(x, "paddle.unique_consecutive")
    idt = _index_dtype(dtype)
    if axis is None:
        a, ax = a.reshape(-1), 0
    else:
        ax = check_axis(int(axis), a.ndim, "unique_consecutive")
    n = a.shape[ax] if a.ndim else 1
    moved = np.moveaxis(a, ax, 0).reshape(n, -1) if a.ndim else a.reshape(1, 1)
    change = np.ones(n, bool)
    if n > 1:
        change[1:] = np.any(moved[1:] != moved[:-1], axis=1)
    starts = np.flatnonzero(change)
    u = np.take(a, starts, axis=ax) if a.ndim else a.reshape(1)
    outs = [_t(u)]
    if return_inverse:
        outs.append(_t(np.cumsum(change) - 1, idt))
    if return_counts:
        outs.append(_t(np.diff(np.append(starts, n)), idt))
    return outs[0] if len(outs) == 1 else tuple(outs)


# -- top-p (nucleus) sampling -------------------------------------------------------------------
@op(
    "_top_p_sampling",
    tensors=("key", "x", "ps", "threshold", "topp_seed"),
    namespaces=(),
    method=None,
    differentiable=False,
)
def _top_p_sampling(key, x, ps, threshold, topp_seed, k):
    order = jnp.argsort(-x, axis=-1, stable=True)
    s = jnp.take_along_axis(x, order, axis=-1)
    bs, n = x.shape
    if threshold is None:
        valid = jnp.ones(s.shape, bool)
    else:
        valid = (s >= threshold.reshape(bs, 1).astype(s.dtype)).at[:, 0].set(True)
    probs = jnp.where(valid, s, 0).astype(jnp.float32)
    if topp_seed is None:
        u = jax.random.uniform(jax.random.wrap_key_data(key), (bs,), jnp.float32)
    else:
        keys = jax.vmap(jax.random.key)(topp_seed.reshape(bs).astype(jnp.int64))
        u = jax.vmap(lambda kk: jax.random.uniform(kk, (), jnp.float32))(keys)
    r = u * ps.reshape(bs).astype(jnp.float32)
    hit = jnp.cumsum(probs, axis=-1) >= r[:, None]
    last = jnp.sum(valid, axis=-1) - 1
    pick = jnp.where(jnp.any(hit, axis=-1), jnp.argmax(hit, axis=-1), last)[:, None]
    out = jnp.take_along_axis(s, pick, axis=-1), jnp.take_along_axis(order, pick, axis=-1)
    kk = builtins.min(int(k), n)
    return (*out, s[:, :kk], order[:, :kk].astype(jnp.int64))


@op("top_p_sampling", composite=True, namespaces=(), tensor_modules=("search",))
def top_p_sampling(
    x: Tensor,
    ps: Tensor,
    threshold: Tensor | None = None,
    topp_seed: Tensor | None = None,
    seed: int = -1,
    k: int = 0,
    mode: str = "truncated",
    return_top: bool = False,
    name: str | None = None,
) -> tuple[Tensor, ...]:
    """Nucleus sampling of one token per row of the [batch, vocab] scores ``x``: over the scores
    in descending order, the first whose running sum reaches ``u * ps`` (u uniform in [0, 1),
    drawn from ``topp_seed`` per row, else ``seed`` when >= 0, else the global generator);
    scores below ``threshold`` are left out. Returns the [batch, 1] scores and int64 ids, and
    with ``return_top`` also the top ``k`` scores and ids. Paddle 3.3.1 has this kernel on GPU
    only (its CPU build raises RuntimeError); only mode "truncated" is implemented here."""
    from .random import _key

    if mode != "truncated":
        raise NotImplementedError(
            f"top_p_sampling: mode {mode!r} is not implemented by paddle-compat (only 'truncated')."
        )
    if len(x.shape) != 2:
        raise ValueError(
            f"(InvalidArgument) top_p_sampling: x must be a 2-D Tensor [batch, vocab], but got "
            f"shape {list(x.shape)}."
        )
    _dt_check = _dt.to_dtype(x.dtype).name
    if _dt_check not in ("float16", "bfloat16", "float32"):
        raise TypeError(
            f"(InvalidType) top_p_sampling: x must be float32, float16 or bfloat16, but got "
            f"{_dt_check}."
        )
    key = _key() if seed < 0 else Tensor(_rng_key_of(seed))
    res = _top_p_sampling(key, x, ps, threshold, topp_seed, int(k))
    return tuple(res) if return_top else (res[0], res[1])


def _rng_key_of(seed: int):
    from .._core import random as _rng

    return _rng.key_data_of(int(seed))
