"""Tensor indexing: ``x[idx]`` and ``x[idx] = v`` with Paddle's rules, plus ``paddle.slice`` and
``paddle.strided_slice``.

An index is parsed on the host into a static *plan* (one token per index item) and dynamic
inputs: the start of every int/slice item (one small int32 vector, so ``x[i]`` in a Python loop
reuses one compiled kernel for every ``i``), 0-d int Tensors, and the int arrays of advanced
indices. Boolean masks become int arrays on the host (data-dependent: eager only). The kernel
for a plan is compiled once per input signature and recorded for autograd like any op.

Paddle's rule differs from numpy's in one place: plain integers are basic indices, applied
before advanced ones, so ``x[0, :, [0, 2]]`` has shape ``[3, 2]`` for x of shape ``[2, 3, 4]``
(numpy gives ``(2, 3)``). Advanced indices that are separated by a slice or None move to the
front, as in numpy.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import jax.numpy as jnp
import numpy as np
from jax import lax

from .._core import autograd, place, runtime_checks, trace_state, views
from .._core import dtype as _dt
from .._core.autograd import rebind_inplace
from .._core.registry import NO_TORCH_KEYWORDS, op, run_kernel
from .._core.tensor import Tensor, to_device

# plan tokens: ("F",) whole dim, ("I",) int (dynamic start), ("T", k) 0-d int Tensor k,
# ("S", length, step) slice (dynamic start of its span), ("N",) new axis, ("A", k) array k,
# ("B", k) array k over a new axis (a 0-d boolean index)
_F, _I, _N = ("F",), ("I",), ("N",)
_pyslice = builtins.slice  # ``slice`` below is the paddle.slice op
_INDEX_ERR = (
    "(InvalidArgument) Currently, Tensor.__indices__() only allows indexing by Boolean, "
    "Integers, Slices, Ellipsis, None, Tuples of these types and List / Tensor of Bool and "
    "Integers, but received {} in {}th slice item"
)


class _Index:
    """A parsed index: the static plan, dynamic inputs and the result shape."""

    __slots__ = ("plan", "starts", "tensors", "arrays", "shape")

    def __init__(self, plan, starts, tensors, arrays, shape):
        self.plan, self.starts, self.tensors, self.arrays, self.shape = (
            plan,
            starts,
            tensors,
            arrays,
            shape,
        )

    def inputs(self):
        out = [] if self.starts is None else [self.starts]
        return out + self.tensors + self.arrays


def _is_int(v) -> bool:
    return isinstance(v, int | np.integer) and not isinstance(v, bool | np.bool_)


def _classify(item, pos):
    """One index item -> (kind, payload)."""
    if item is None:
        return "none", None
    if item is Ellipsis:
        return "ell", None
    if isinstance(item, bool | np.bool_):
        return "bool0", bool(item)
    if _is_int(item):
        return "int", int(item)
    if isinstance(item, _pyslice):
        return "slice", item
    if isinstance(item, Tensor):
        dt = item.dtype
        if dt is _dt.bool_:
            if item.ndim == 0:
                trace_state.check_concrete(item, "Indexing with a boolean Tensor")
                return "bool0", bool(item.item())
            return "mask", item
        if not _dt.is_integer(dt) and item.size == 0:  # an empty index of any dtype
            return "arr", np.zeros(item.shape, np.int64)
        if not _dt.is_integer(dt):
            raise ValueError(
                f"(InvalidArgument) Index holds the wrong type, it holds [{dt.name}], but "
                "desires to be [int64]."
            )
        return ("tint", item) if item.ndim == 0 else ("arr", item)
    if isinstance(item, np.ndarray | list | tuple):
        try:
            a = np.asarray(item)
        except (ValueError, TypeError):
            a = np.asarray(item, dtype=object)
        if a.dtype == np.bool_:
            return ("bool0", bool(a)) if a.ndim == 0 else ("mask", a)
        if a.size == 0 and a.dtype.kind == "f" and not isinstance(item, np.ndarray):
            a = a.astype(np.int64)  # [] -> an empty int index
        if a.dtype.kind not in "iu":
            raise ValueError(_INDEX_ERR.format(type(item).__name__, pos))
        return ("int", int(a)) if a.ndim == 0 else ("arr", a)
    raise ValueError(_INDEX_ERR.format(type(item).__name__, pos))


def _consumes(kind, payload) -> int:
    if kind in ("int", "tint", "slice", "arr"):
        return 1
    if kind == "mask":
        return payload.ndim
    return 0


def _mask_to_arrays(m, shape, dim):
    """Boolean mask covering ``shape[dim:dim+m.ndim]`` -> int64 index arrays (host)."""
    mshape = tuple(m.shape)
    for j, s in enumerate(mshape):
        if s != shape[dim + j]:
            raise IndexError(
                f"(OutOfRange) The shape of boolean index {s} did not match indexed tensor "
                f"{shape[dim + j]} along axis {dim + j}."
            )
    if isinstance(m, Tensor):
        trace_state.check_concrete(
            m,
            "x[mask] (a boolean-mask index has a data-dependent shape; under to_static use "
            "paddle.where(mask, x, 0) or paddle.masked_fill to keep shapes static)",
        )
        m = np.asarray(m._value)
    return [np.asarray(a, np.int64) for a in np.nonzero(m)]


def _check_bounds(index, n, axis):
    """Integer index arrays must lie in [-n, n) (Paddle reads out of bounds here; we raise)."""
    if not isinstance(n, int):  # a symbolic dim (jax.export)
        return
    runtime_checks.check_in_range(
        index,
        -n,
        n,
        IndexError,
        "(OutOfRange) The index {bad} is out of bounds in tensor "
        + str(axis)
        + "-th axis, it should be in the range of [{lo}, {hi}).",
    )


def parse_index(shape, idx) -> _Index:
    """Paddle index -> plan + dynamic inputs (see the module docstring)."""
    ndim = len(shape)
    items = idx if isinstance(idx, tuple) else (idx,)
    parsed = [_classify(it, i) for i, it in enumerate(items)]
    n_ell = sum(1 for k, _ in parsed if k == "ell")
    if n_ell > 1:
        raise ValueError("(InvalidArgument) An index can only have a single ellipsis ('...')")
    used = sum(_consumes(k, p) for k, p in parsed)
    if used > ndim:
        # Paddle: an int past the last axis is an IndexError, other items a ValueError
        d = 0
        for k, p in parsed:
            d += _consumes(k, p)
            if d > ndim:
                if k == "int":
                    raise IndexError(
                        f"(OutOfRange) The starting index {p} of slice is out of bounds in "
                        f"tensor {d - 1}-th axis, it should be in the range of [0, 0)."
                    )
                break
        raise ValueError(
            f"(InvalidArgument) Too many indices ({used}) for tensor of dimension {ndim}."
        )
    if n_ell:
        i = next(i for i, (k, _) in enumerate(parsed) if k == "ell")
        parsed[i : i + 1] = [("full", None)] * (ndim - used)
    else:
        parsed += [("full", None)] * (ndim - used)

    plan, starts, tensors, arrays = [], [], [], []
    mid_shape = []  # shape after the basic (step 1) part
    adv_pos = []  # positions of advanced arrays in mid_shape
    d = 0
    for kind, p in parsed:
        if kind == "full":
            plan.append(_F)
            mid_shape.append(shape[d])
            d += 1
        elif kind == "int":
            n = shape[d]
            if not -n <= p < n:
                raise IndexError(
                    f"(OutOfRange) The starting index {p} of slice is out of bounds in tensor "
                    f"{d}-th axis, it should be in the range of [{-n}, {n})."
                )
            plan.append(_I)
            starts.append(p + n if p < 0 else p)
            d += 1
        elif kind == "tint":
            _check_bounds(p, shape[d], d)
            plan.append(("T", len(tensors)))
            tensors.append(p)
            d += 1
        elif kind == "slice" and p.start is None and p.stop is None and p.step is None:
            plan.append(_F)  # ':' keeps the axis whole (also a symbolic jax.export dim)
            mid_shape.append(shape[d])
            d += 1
        elif kind == "slice":
            n = shape[d]
            if p.step is not None and int(p.step) == 0:
                raise ValueError("(InvalidArgument) slice step cannot be zero.")
            start, stop, step = p.indices(n)
            length = len(range(start, stop, step))
            if step == 1 and length == n:
                plan.append(_F)
            elif length == 0:
                plan.append(("S", 0, 1))
                starts.append(0)
            else:
                plan.append(("S", length, step))
                starts.append(start if step > 0 else start + (length - 1) * step)
            mid_shape.append(length)
            d += 1
        elif kind == "none":
            plan.append(_N)
            mid_shape.append(1)
        elif kind == "bool0":
            adv_pos.append(len(mid_shape))
            plan.append(("B", len(arrays)))
            arrays.append(np.zeros((1 if p else 0,), np.int64))
            mid_shape.append(1)
        elif kind == "arr":
            _check_bounds(p, shape[d], d)
            plan.append(("A", len(arrays)))
            arrays.append(p)
            adv_pos.append(len(mid_shape))
            mid_shape.append(shape[d])
            d += 1
        else:  # mask
            for a in _mask_to_arrays(p, shape, d):
                plan.append(("A", len(arrays)))
                arrays.append(a)
                adv_pos.append(len(mid_shape))
                mid_shape.append(shape[d])
                d += 1
    out_shape = mid_shape
    if arrays:
        try:
            bshape = list(np.broadcast_shapes(*[tuple(a.shape) for a in arrays]))
        except ValueError:
            shapes = " and ".join(str(list(a.shape)) for a in arrays)
            raise ValueError(
                "(InvalidArgument) Broadcast dimension mismatch. Operands could not be "
                f"broadcast together with the shapes {shapes}."
            ) from None
        rest = [s for i, s in enumerate(mid_shape) if i not in adv_pos]
        adjacent = adv_pos == list(range(adv_pos[0], adv_pos[0] + len(adv_pos)))
        at = adv_pos[0] if adjacent else 0
        out_shape = rest[:at] + bshape + rest[at:]
        arrays = [a if isinstance(a, Tensor) else np.asarray(a) for a in arrays]
    st = starts_array(tuple(starts)) if starts else None
    return _Index(tuple(plan), st, tensors, arrays, out_shape)


_STARTS: dict = {}  # slice starts -> their int32 array on the default device
_STARTS_DEVICE = [None]  # the default device the arrays were made for


def starts_array(starts: tuple):
    """Slice starts as a kernel operand: a device array made once per value while JAX is idle
    (a host array is transferred at every call), else a host array."""
    if _STARTS_DEVICE[0] is not place._current:
        _STARTS.clear()
        _STARTS_DEVICE[0] = place._current
    a = _STARTS.get(starts)
    if a is None:
        a = np.asarray(starts, np.int32)
        if trace_state.jax_idle() and len(_STARTS) < 4096:
            a = _STARTS[starts] = to_device(a, owned=True)
    return a


# -- kernels ----------------------------------------------------------------------------------
def _region(plan, x, starts, tensors):
    """Step 1, the basic part of the index: one dynamic_slice over the span of every int/slice
    item, then strides and reversals. Returns (span, view, starts, steps, dynamic?, mid shape)."""
    shape = x.shape
    st, sizes, steps = [], [], []
    dyn = False
    j = 0
    d = 0
    for t in plan:
        tag = t[0]
        if tag in ("N", "B"):
            continue
        n = shape[d]
        if tag == "F" or tag == "A":
            st.append(0)
            sizes.append(n)
            steps.append(1)
        elif tag == "I":
            st.append(starts[j])
            j += 1
            sizes.append(1)
            steps.append(1)
            dyn = True
        elif tag == "T":
            i = tensors[t[1]]
            i = jnp.where(i < 0, i + n, i).astype(jnp.int32)
            st.append(i)
            sizes.append(1)
            steps.append(1)
            dyn = True
        else:  # S
            length, step = t[1], t[2]
            st.append(starts[j])
            j += 1
            sizes.append(0 if length == 0 else (length - 1) * abs(step) + 1)
            steps.append(step)
            dyn = True
        d += 1
    span = lax.dynamic_slice(x, [jnp.asarray(s, jnp.int32) for s in st], sizes) if dyn else x
    view = span
    if any(s != 1 for s in steps):
        view = lax.slice(span, (0,) * span.ndim, span.shape, [abs(s) for s in steps])
        rev = tuple(i for i, s in enumerate(steps) if s < 0)
        if rev:
            view = lax.rev(view, rev)
    mid_shape, d = [], 0
    for t in plan:
        if t[0] in ("N", "B"):
            mid_shape.append(1)
            continue
        if t[0] not in ("I", "T"):
            mid_shape.append(view.shape[d])
        d += 1
    return span, view, st, steps, dyn, tuple(mid_shape)


def _adv_index(plan, arrays):
    """Step 2 index over the mid array (None if there are no advanced indices)."""
    if not arrays:
        return None
    idx = []
    for t in plan:
        if t[0] in ("I", "T"):
            continue
        idx.append(arrays[t[1]] if t[0] in ("A", "B") else _pyslice(None))
    return tuple(idx)


def _split_inputs(plan, leaves):
    has_starts = any(t[0] in ("I", "S") for t in plan)
    n_t = sum(1 for t in plan if t[0] == "T")
    starts = leaves[0] if has_starts else None
    rest = leaves[1:] if has_starts else leaves
    return starts, list(rest[:n_t]), list(rest[n_t:])


def _make_get(plan):
    def get(x, *leaves):
        starts, tensors, arrays = _split_inputs(plan, leaves)
        _, view, *_, mid_shape = _region(plan, x, starts, tensors)
        y = view.reshape(mid_shape)
        adv = _adv_index(plan, arrays)
        return y if adv is None else y[adv]

    return get


def _make_set(plan, out_shape):
    def put(x, value, *leaves):
        starts, tensors, arrays = _split_inputs(plan, leaves)
        span, view, st, steps, dyn, mid_shape = _region(plan, x, starts, tensors)
        v = _fit_value(value.astype(x.dtype), out_shape)
        adv = _adv_index(plan, arrays)
        if adv is None:
            mid = jnp.broadcast_to(v, mid_shape)
        else:
            mid = view.reshape(mid_shape).at[adv].set(v)
        new_view = mid.reshape(view.shape)
        if any(s != 1 for s in steps):
            rev = tuple(i for i, s in enumerate(steps) if s < 0)
            if rev:
                new_view = lax.rev(new_view, rev)
            sl = tuple(_pyslice(None, None, abs(s)) for s in steps)
            new_span = span.at[sl].set(new_view)
        else:
            new_span = new_view
        if not dyn:
            return new_span
        return lax.dynamic_update_slice(x, new_span, [jnp.asarray(s, jnp.int32) for s in st])

    return put


def _fit_value(v, shape):
    """numpy assignment broadcasting: drop leading 1-dims of v, then broadcast to shape."""
    while v.ndim > len(shape) and v.shape[0] == 1:
        v = v.reshape(v.shape[1:])
    return jnp.broadcast_to(v, tuple(shape))


def _check_value_shape(vshape, target):
    vs = list(vshape)
    while len(vs) > len(target) and vs[0] == 1:
        vs = vs[1:]
    ok = len(vs) <= len(target) and all(
        a == 1 or a == b for a, b in zip(vs[::-1], list(target)[::-1])
    )
    if not ok:
        raise ValueError(
            "(InvalidArgument) The shape of tensor assigned value must match the shape of "
            f"target shape: {list(vshape)}, but now shape is {list(target)}."
        )


# -- registered ops (kernels are run through run_kernel with a plan-keyed cache) ---------------
@op("getitem", tensors=("x",), method=None, namespaces=(), composite=True)
def getitem(x, index):
    """``x[index]`` (Paddle indexing rules; differentiable)."""
    return _getitem(x, index)


def _getitem_view(x: Tensor, index, same: bool = True):
    """``Tensor.__getitem__``: basic indexing (ints, slices, None, ...) gives a view of x, as
    in Paddle (``_core/views.py``; ``same``: one that keeps every element in place is x
    itself under another Tensor); advanced indexing a copy."""
    out = _getitem(x, index)
    if _basic(index):
        views.share(x, out, views.index_view(x._val.shape, index, same))
    return out


def _basic(index) -> bool:
    """Whether ``index`` is Paddle's basic indexing (a view): ints, slices, None, Ellipsis."""
    items = index if type(index) is tuple else (index,)
    return all(
        i is None or i is Ellipsis or isinstance(i, builtins.slice) or type(i) is int for i in items
    )


@op("setitem", tensors=("x",), method=None, namespaces=(), composite=True)
def setitem(x, index, value):
    """``x[index] = value`` in place (value cast to x's dtype); returns x."""
    _setitem(x, index, value)
    return x


_GET = getitem
_SET = setitem
_INT_PLANS: dict[int, tuple] = {}


def _getitem(x: Tensor, index):
    shape = x._value.shape
    if type(index) is int and shape:  # fast path: x[i]
        n = shape[0]
        if not -n <= index < n:
            raise IndexError(
                f"(OutOfRange) The starting index {index} of slice is out of bounds in tensor "
                f"0-th axis, it should be in the range of [{-n}, {n})."
            )
        plan = _INT_PLANS.get(len(shape))
        if plan is None:
            plan = _INT_PLANS[len(shape)] = (_I,) + (_F,) * (len(shape) - 1)
        starts = starts_array((index + n if index < 0 else index,))
        return run_kernel((_GET, plan), lambda: _make_get(plan), [x, starts])
    ix = parse_index(shape, index)
    return run_kernel((_GET, ix.plan), lambda: _make_get(ix.plan), [x, *ix.inputs()])


def _value_input(x: Tensor, value):
    if isinstance(value, Tensor):
        return value
    if isinstance(value, bool | int | float):  # numpy scalars are refused, as in Paddle
        return np.asarray(value).astype(x._value.dtype)
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, complex):
        return np.asarray(value).astype(x._value.dtype)
    raise ValueError(
        "(InvalidArgument) Value type error. The assign value allows Tensor, numpy.ndarray, "
        f"integer, float, complex or bool, but received {type(value).__name__}."
    )


def _single_mask(x: Tensor, index):
    """The boolean mask if ``index`` is one mask over x's leading dims, else None."""
    if isinstance(index, tuple):
        if len(index) != 1:
            return None
        index = index[0]
    if isinstance(index, Tensor) and index.dtype is _dt.bool_ and index.ndim > 0:
        m = index
    elif isinstance(index, np.ndarray) and index.dtype == np.bool_ and index.ndim > 0:
        m = index
    else:
        return None
    if tuple(m.shape) != tuple(x._value.shape[: len(m.shape)]):
        return None
    return m


def _setitem(x: Tensor, index, value) -> None:
    if not x.stop_gradient and x._node is None and autograd.is_grad_enabled():
        raise ValueError(
            f"(InvalidArgument) Leaf Tensor (shape {x.shape}) that doesn't stop gradient "
            "can't use inplace strategy."
        )
    v = _value_input(x, value)
    shape = x._value.shape
    m = _single_mask(x, index)
    if m is not None and _fits_where(np.shape(v), shape, len(m.shape)):
        # x[mask] = v without a host sync: where(mask, v, x) (works under to_static too)
        k = len(m.shape)
        key = (_SET, "mask", k)
        out = run_kernel(key, lambda: _make_mask_set(k), [x, v, m])
    else:
        ix = parse_index(shape, index)
        _check_value_shape(np.shape(v), ix.shape)
        key = (_SET, ix.plan, tuple(ix.shape))
        out = run_kernel(key, lambda: _make_set(ix.plan, tuple(ix.shape)), [x, v, *ix.inputs()])
    rebind_inplace(x, out)


def _fits_where(vshape, xshape, k):
    vs = list(vshape)
    while vs and vs[0] == 1 and len(vs) > len(xshape) - k:
        vs = vs[1:]
    tail = list(xshape[k:])
    return len(vs) <= len(tail) and all(a == 1 or a == b for a, b in zip(vs[::-1], tail[::-1]))


def _make_mask_set(k):
    def put(x, value, mask):
        tail = x.shape[k:]
        v = _fit_value(value.astype(x.dtype), tail)
        m = mask.reshape(mask.shape + (1,) * len(tail))
        return jnp.where(m, v, x)

    return put


getitem, setitem = _getitem_view, _setitem  # Tensor.__getitem__/__setitem__ (_methods.py)


# -- paddle.slice / paddle.strided_slice ---------------------------------------------------------
def _ints(v, what):
    if isinstance(v, Tensor):
        trace_state.check_concrete(v, f"paddle.{what} with Tensor bounds")
        return [int(a) for a in np.asarray(v._value).reshape(-1)]
    if _is_int(v):
        return [int(v)]
    return [int(a) if not isinstance(a, Tensor) else int(a.item()) for a in v]


def _axis_index(ndim, axes, what):
    axes = [int(a) for a in axes]
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(
                f"(InvalidArgument) The axis of {what} should be in range [{-ndim}, {ndim}), "
                f"but received {a}."
            )
    return [a % ndim for a in axes]


@op("slice", composite=True)
def slice(
    input: Tensor,
    axes: Sequence[int],
    starts: Sequence[int] | Tensor,  # noqa: A001 - Paddle's name
    ends: Sequence[int] | Tensor,
) -> Tensor:
    """Slice ``input`` along ``axes`` from ``starts`` to ``ends`` (clamped to the dim sizes)."""
    x = input
    axes = _axis_index(x.ndim, _ints(axes, "slice"), "slice")
    starts, ends = _ints(starts, "slice"), _ints(ends, "slice")
    if not len(axes) == len(starts) == len(ends):
        raise ValueError(
            "(InvalidArgument) The size of axes, starts and ends of slice must be equal, got "
            f"{len(axes)}, {len(starts)} and {len(ends)}."
        )
    idx = [_pyslice(None, None, None)] * x.ndim
    for a, s, e in zip(axes, starts, ends):
        idx[a] = _pyslice(s, e, None)
    return _getitem_view(x, tuple(idx), same=False)


@op("strided_slice", composite=True, aliases=NO_TORCH_KEYWORDS)
def strided_slice(
    x: Tensor,
    axes: Sequence[int],
    starts: Sequence[int] | Tensor,
    ends: Sequence[int] | Tensor,
    strides: Sequence[int] | Tensor,
    name: str | None = None,
) -> Tensor:
    """Slice with steps along ``axes`` (Python slice semantics per axis)."""
    axes = _axis_index(x.ndim, _ints(axes, "strided_slice"), "strided_slice")
    starts, ends = _ints(starts, "strided_slice"), _ints(ends, "strided_slice")
    strides = _ints(strides, "strided_slice")
    if any(s == 0 for s in strides):
        raise ValueError("(InvalidArgument) stride index in StridedSlice operator is 0.")
    idx = [_pyslice(None, None, None)] * x.ndim
    for a, s, e, st in zip(axes, starts, ends, strides):
        idx[a] = _pyslice(s, e, st)
    return _getitem_view(x, tuple(idx), same=False)
