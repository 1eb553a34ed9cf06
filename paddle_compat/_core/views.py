"""Paddle's views: in eager mode many results share memory with their input (reshape/view/
flatten/squeeze/unsqueeze/unflatten, transpose/permute/moveaxis/swapaxes/t, basic indexing,
slice/strided_slice/narrow, diagonal, unbind, as_strided, Tensor.unfold, view(dtype),
real/imag/as_real/as_complex, detach), so an in-place write to either one (``x[0] = 10``,
``y.add_(z)``, ``x.zero_()``) shows in the other. Copies in Paddle (and here): split/chunk/
tensor_split/h|v|dsplit, unstack, expand/broadcast_to, clone, and a reshape/flatten whose
strides cannot describe the new shape (``x.t().reshape([-1])``).

JAX arrays are immutable, so the Tensors that share one buffer form a ``_Group`` instead: the
group keeps the buffer's current array (its root value) and each member a ``_Link`` with the
two functions of its view: ``get`` (root value -> the member's value) and ``put`` (root value,
the member's new value -> the new root value). A write to one member (the one way a Tensor's
value changes, ``Tensor._set_value``) computes the new root value and gives every other live
member its new value. A link also knows the member's strides and byte offset into the buffer
as Paddle reports them (``Tensor.stride()``, ``offset``, ``is_contiguous()``, ``data_ptr()``),
computed on first use from the rule of the op that made it; reshape-like ops use them to
decide, as Paddle does, whether the result can be a view at all.

An op declares its view with ``op(view=...)``: True for a reshape-like op (view when the
strides allow, else a copy), or a function of the bound arguments and the input Tensor giving
a ``View`` (a list of them for ``unbind``), a marker (``STRICT``: ``view(shape)``, raise
where the strides allow no view; ``RESHAPE_SAME``: reshape, the input itself when the shape is
unchanged) or None (a copy). Tensors that are Paddle's same DenseTensor (``detach``, ``x[:]``,
a reshape to the same shape) share one link (``SAME``). An in-place view op (``x.t_()``,
``x.unsqueeze_(0)``) makes x, and the Tensors that share its link, that view (``adopt``): the
buffer is unchanged.

Autograd is as in Paddle 3.3.1: a write through a view changes the base's value but not its
autograd history (``y = x[0]; y.scale_(2); x.sum().backward()`` gives ones).

Groups form outside ``to_static`` (op by op, or recorded by deferred execution); inside it a
view is a copy (writes there are values of the traced program)."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import deferred, segment_store, trace_state
from . import dtype as _dt


class _Group:
    __slots__ = ("value", "members", "prune_at")

    def __init__(self, value):
        self.value = value  # the shared buffer's current array
        self.members: list = []  # weakrefs of the member Tensors
        self.prune_at = 8  # drop dead members when the list grows past this (amortized)

    def add(self, t) -> None:
        if len(self.members) >= self.prune_at:
            self.members[:] = [r for r in self.members if r() is not None]
            self.prune_at = max(8, 2 * len(self.members))
        self.members.append(weakref.ref(t))


class _Link:
    """A member's place in its group: get/put of its view of the root value, its layout (None:
    row-major at byte offset 0; a (strides, offset) pair; or a ``_Lazy`` one), the shape and
    dtype a write must keep to stay in the group, and the link of the Tensor it was made from
    (Tensors that are one another's ``SAME`` share one link)."""

    __slots__ = ("group", "get", "put", "lay", "shape", "dtype", "src")

    def __init__(self, group, get, put, lay, shape, dtype, src):
        self.group, self.get, self.put, self.lay = group, get, put, lay
        self.shape, self.dtype, self.src = shape, dtype, src


class View:
    """What an op's ``view=`` function gives for one output: ``get``/``put`` of the input's
    value (``root``: of the group's root value, ``as_strided``), and its layout ``rule``: a
    function (input shape, strides, byte offset, itemsize) -> (strides, byte offset), applied
    on first use; or the layout itself: None (row-major at offset 0) or (strides, offset)."""

    __slots__ = ("get", "put", "rule", "root")

    def __init__(self, get: Callable, put: Callable, rule=None, root: bool = False):
        self.get, self.put, self.rule, self.root = get, put, rule, root


# markers an op's view= function may give instead of a View
RESHAPE = "reshape"  # the same elements in row-major order (a copy where strides cannot tell)
STRICT = "strict"  # view(shape): a reshape that raises where Paddle's strides allow no view
SAME = "same"  # the input itself under another Tensor (detach, x[:]): shape changes are shared
RESHAPE_SAME = "reshape_same"  # reshape/unflatten: SAME when the shape is unchanged


class _Lazy:
    """A layout computed on first use from the base's layout at the time the view was made."""

    __slots__ = ("rule", "base", "shape", "itemsize", "value")

    def __init__(self, rule, base, shape, itemsize):
        self.rule, self.base, self.shape, self.itemsize = rule, base, shape, itemsize
        self.value = None

    def resolve(self):
        if self.value is None:
            st, off = _strides_offset(self.base, self.shape)
            self.value = self.rule(self.shape, st, off, self.itemsize)
            self.base = None
        return self.value


def _eager() -> bool:
    """Outside ``to_static``: eager, op by op or deferred (a deferred view's gets and puts
    are recorded into the pending segment like ops)."""
    return trace_state._ctx is None and trace_state.jax_idle()


def _identity_get(r):  # the root's own link
    return r


def _identity_put(r, v):
    return v


def row_major(shape) -> list[int]:
    st, acc = [], 1
    for d in reversed(shape):
        st.append(acc)
        acc *= int(d)
    return st[::-1]


def _strides_offset(lay, shape):
    if lay is None:
        return row_major(shape), 0
    if lay.__class__ is _Lazy:
        return lay.resolve()
    return lay


# -- joining, writing, leaving ----------------------------------------------------------------
def _same_layout(shape, st, off, isz):
    return st, off


def share(base, view, spec=None, put: Callable | None = None) -> None:
    """Make ``view`` (computed from ``base``) a view of it, as ``spec`` (a ``View`` or a
    marker) says; default: ``SAME`` when shape and dtype are unchanged (``detach``), else
    ``RESHAPE``. ``share(base, view, get, put)``: a view with ``base``'s layout
    (``from_dlpack``'s host mirror)."""
    if base is not view and _eager():
        _join(base, view, spec if put is None else View(spec, put, _same_layout))


def share_op(base, res, view, vals: dict) -> None:
    """``op(view=...)``'s result ``res`` (a Tensor or a list of them) joins ``base``'s group."""
    if not _eager():
        return
    spec = RESHAPE if view is True else view(vals, base)
    if spec is None:
        return
    if res.__class__ is list or res.__class__ is tuple:
        for r, s in zip(res, spec):
            _join(base, r, s)
    elif res is not base:
        _join(base, res, spec)


def _join(base, view, spec) -> None:
    b, v = base._val, view._val
    if spec.__class__ is not View:
        if spec is None or spec is RESHAPE_SAME:
            spec = SAME if v.shape == b.shape and v.dtype == b.dtype else RESHAPE
        if spec is not SAME:
            spec = reshape_view(base, v.shape, spec is STRICT)
            if spec is None:
                return
    link = base._alias
    if spec is not SAME and spec.root:
        if (b.dtype if link is None else link.group.value.dtype) != v.dtype:
            return  # as_strided of a view of another dtype: a copy here
    if link is None:
        group = _Group(b)
        link = base._alias = _Link(
            group, _identity_get, _identity_put, None, b.shape, b.dtype, None
        )
        group.add(base)
    group = link.group
    if spec is SAME:  # one link for both: an in-place view op on either reshapes both
        group.add(view)
        view._alias = link
        return
    get, put, rule = spec.get, spec.put, spec.rule
    if spec.root:
        if link.get is not _identity_get:  # read the buffer, not the base's elements
            v = view._val = get(group.value)
    elif link.get is not _identity_get:  # a view of a view: compose with the base's own link
        bget, bput = link.get, link.put
        get, put = (
            (lambda r, g=get: g(bget(r))),
            (lambda r, w, p=put: bput(r, p(bget(r), w))),
        )
    if rule is not None and rule.__class__ is not tuple:
        rule = _Lazy(rule, link.lay, b.shape, b.dtype.itemsize)
    group.add(view)
    view._alias = _Link(group, get, put, rule, v.shape, v.dtype, link)


def _live(group):
    return [m for m in (r() for r in group.members) if m is not None]


def _leave(t, link, value) -> None:
    """t takes a buffer of its own holding ``value``; the Tensors that share t's link (SAME)
    come along."""
    sibs = [m for m in _live(link.group) if m._alias is link and m is not t]
    if not sibs:
        t._alias = None
        return
    group = _Group(value)
    own = _Link(group, _identity_get, _identity_put, None, value.shape, value.dtype, None)
    for m in (t, *sibs):
        m._alias = own
        group.add(m)
        if m is not t:
            m._val = value
            m._version += 1


def propagate(t, value) -> None:
    """After ``t``'s value became ``value``: the group's buffer and its other members follow.
    A write that changes ``t``'s shape or dtype (``resize_``, ``set_``, a ``reshape_`` its
    strides cannot describe) takes it out (Paddle gives it a new buffer)."""
    link = t._alias
    if not _eager():
        return
    if value.shape != link.shape or value.dtype != link.dtype:
        _leave(t, link, value)
        return
    group = link.group
    try:
        root = link.put(group.value, value)
    except Exception:  # noqa: BLE001 - a write the view cannot take back: t leaves the group
        _leave(t, link, value)
        return
    group.value = root
    for r in group.members:
        m = r()
        if m is None or m is t or m._alias is None or m._alias.group is not group:
            continue
        m._val = m._alias.get(root)
        m._version += 1


def adopt(x, out) -> bool:
    """An in-place view op (``x.t_()``, ``x.unsqueeze_(0)``): x (and the Tensors that share
    its link) becomes ``out``, the view of x the op made, with the buffer unchanged; False
    when ``out`` is no such view."""
    ol, xl = out._alias, x._alias
    if ol is None or xl is None or ol.src is not xl:
        return False
    live = _live(ol.group)
    sibs = [m for m in live if m._alias is xl]
    if xl.get is _identity_get and len(sibs) == 1 and len(live) == 2:  # x owned it alone
        trace_state.note_written(x)
        x._val = out._val
        x._version += 1
        x._alias = out._alias = None
        return True
    new = _Link(ol.group, ol.get, ol.put, ol.lay, ol.shape, ol.dtype, ol.src)
    for m in sibs:
        trace_state.note_written(m)
        m._val = out._val
        m._version += 1
        m._alias = new
    return True


def make_contiguous(t) -> None:
    """``Tensor.contiguous()``: a view whose strides are not row-major gets its own buffer
    (Paddle copies it in place and returns the same Tensor)."""
    if t._alias is not None and not is_contiguous(t):
        _leave(t, t._alias, t._val)


# -- layout queries ---------------------------------------------------------------------------
def layout(t):
    """(strides in elements, byte offset) of a group member, None for any other Tensor."""
    link = t._alias
    if link is None or link.lay is None:
        return None
    st, off = _strides_offset(link.lay, link.shape)
    return list(st), off


def is_contiguous(t) -> bool:
    lay = layout(t)
    if lay is None:
        return True
    shape = t._val.shape
    return lay[0] == (list(shape) if 0 in shape else row_major(shape))


def data_ptr(t) -> int:
    """The address of t's first element: a view's is its buffer's plus its offset."""
    link = t._alias
    if link is None or not _eager():
        return t._value.unsafe_buffer_pointer()
    lay = layout(t)
    root = deferred.resolve(link.group.value)
    return root.unsafe_buffer_pointer() + (lay[1] if lay else 0)


# -- the views of ops -------------------------------------------------------------------------
def _view_strides(shape, strides, new_shape):
    """Strides that read ``shape``/``strides``'s elements in row-major order as ``new_shape``,
    or None when no strides can (Paddle then copies, or refuses ``view``)."""
    shape, new_shape = list(shape), list(new_shape)
    if not shape:
        return row_major(new_shape)
    if 0 in shape:
        return list(strides) if shape == new_shape else row_major(new_shape)
    out = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    base = strides[-1]
    t_numel = v_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        t_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != t_numel * base):
            while view_d >= 0 and (v_numel < t_numel or new_shape[view_d] == 1):
                out[view_d] = v_numel * base
                v_numel *= new_shape[view_d]
                view_d -= 1
            if v_numel != t_numel:
                return None
            if d > 0:
                base, t_numel, v_numel = strides[d - 1], 1, 1
    return out if view_d == -1 else None


def _layout_of(strides, offset, shape):
    return None if offset == 0 and list(strides) == row_major(shape) else (list(strides), offset)


def reshape_view(base, shape, strict: bool = False) -> View | None:
    """The same elements in row-major order as ``shape``: a view when ``base``'s strides allow
    (always for a row-major base), else None (a copy) or, ``strict``, Paddle's ValueError."""
    shape = tuple(shape)
    get, put = _kernel("reshape_get", shape), _kernel("reshape_put")
    link = base._alias
    if link is None or link.lay is None:
        return View(get, put)
    st, off = _strides_offset(link.lay, link.shape)
    new = _view_strides(link.shape, st, shape)
    if new is None:
        if strict:
            raise ValueError("(InvalidArgument) The Tensor can not be viewed, please call reshape.")
        return None
    return View(get, put, _layout_of(new, off, shape))


def _inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


def permute_view(perm) -> View:
    """transpose/permute/moveaxis/swapaxes/t: the dims of the input in ``perm`` order."""
    perm = tuple(perm)
    return View(
        _kernel("permute", perm),
        _kernel("permute_put", _inverse(perm)),
        lambda shape, st, off, isz: ([st[p] for p in perm], off),
    )


# The gets and puts of views are compiled once per kind, static arguments and input shape: a
# write through a view recomputes every live member of its group. Eager, their programs come
# from the segment store (a warm process traces none of them).
@functools.lru_cache(maxsize=1024)
def _kernel(kind: str, *key) -> Callable:
    jitted = segment_store.note(jax.jit(_BUILDERS[kind](*key)), ("views", kind, *key))
    return functools.partial(_run, jitted)


def _run(jitted, *arrays):
    return deferred.apply(jitted, *arrays)  # recorded in deferred execution


def _normalize_index(shape, index) -> tuple:
    """Basic indexing (ints, slices, None, one Ellipsis) as ints and explicit slices (a
    negative step's stop None where it runs past the start)."""
    items = index if type(index) is tuple else (index,)
    n_dims = sum(1 for i in items if i is not None and i is not Ellipsis)
    out, d = [], 0
    for i in items:
        if i is Ellipsis:
            for _ in range(len(shape) - n_dims):
                out.append(slice(0, shape[d], 1))
                d += 1
        elif i is None:
            out.append(None)
        elif type(i) is int:
            out.append(i + shape[d] if i < 0 else i)
            d += 1
        else:
            start, stop, step = i.indices(shape[d])
            out.append(slice(start, None if stop < 0 else stop, step))
            d += 1
    out.extend(slice(0, shape[k], 1) for k in range(d, len(shape)))
    return tuple(out)


def _index_plan(shape, index):
    """(structure, low corner): per item of the normalized index None, ("i",) or ("s", n,
    step) (the static part of its kernels), and the first element each dim reads."""
    struct, lows = [], []
    for i in _normalize_index(shape, index):
        if i is None:
            struct.append(None)
        elif type(i) is int:
            struct.append(("i",))
            lows.append(i)
        else:
            n = len(range(i.start, -1 if i.stop is None else i.stop, i.step))
            struct.append(("s", n, i.step))
            lows.append(min(i.start, i.start + (n - 1) * i.step) if n else 0)
    return tuple(struct), tuple(lows)


def _window(struct):
    dims = [s for s in struct if s is not None]
    sizes = tuple(1 if s[0] == "i" else (s[1] - 1) * abs(s[2]) + 1 if s[1] else 0 for s in dims)
    picks = tuple(slice(None, None, abs(s[2])) if s[0] == "s" else slice(None) for s in dims)
    flips = tuple(d for d, s in enumerate(dims) if s[0] == "s" and s[2] < 0)
    out_shape = tuple(1 if s is None else s[1] for s in struct if s is None or s[0] == "s")
    win_shape = tuple(1 if s[0] == "i" else s[1] for s in dims)
    return sizes, picks, flips, out_shape, win_shape


def _index_get(struct):
    sizes, picks, flips, out_shape, _ = _window(struct)

    def get(b, *lows):
        w = lax.dynamic_slice(b, lows, sizes)[picks]
        return (jnp.flip(w, flips) if flips else w).reshape(out_shape)

    return get


def _index_put(struct):
    sizes, picks, flips, _, win_shape = _window(struct)

    def put(b, v, *lows):
        v = v.reshape(win_shape)
        w = lax.dynamic_slice(b, lows, sizes).at[picks].set(jnp.flip(v, flips) if flips else v)
        return lax.dynamic_update_slice(b, w, lows)

    return put


def _index_rule(struct, lows):
    def rule(shape, st, off, isz):
        out_shape, out_st, d = [], [], 0
        for s in struct:
            if s is None:
                continue
            if s[0] == "i":
                off += lows[d] * st[d] * isz
            else:
                n, step = s[1], s[2]
                if n:
                    off += (lows[d] if step > 0 else lows[d] + (n - 1) * -step) * st[d] * isz
                out_shape.append(n)
                out_st.append(st[d] * step)
            d += 1
        if 0 in out_shape:
            off = 0  # Paddle reports an empty view's offset as 0
        if None in struct:  # new size-1 dims: strides as unsqueeze gives them
            sizes = iter(out_shape)
            full = [1 if s is None else next(sizes) for s in struct if s is None or s[0] == "s"]
            out_st = _view_strides(out_shape, out_st, full)
        return out_st, off

    return rule


def _keeps_all(shape, index) -> bool:
    """Whether a basic index keeps every element in place (``x[:]``, ``x[...]``, ``x[-2:]``)."""
    items = index if type(index) is tuple else (index,)
    if any(i is None or type(i) is int for i in items):
        return False
    return all(
        (i.start, i.stop, i.step) == (0, n, 1)
        for i, n in zip(_normalize_index(shape, items), shape)
    )


def _host_ints(values) -> list:
    """Python ints as host int64 scalars: operands a stored program takes."""
    return [np.asarray(v, np.int64) for v in values]


class _Index:
    """A basic-indexing view's get/put/rule, its plan (``_index_plan``) made on first use."""

    __slots__ = ("shape", "index", "plan")

    def __init__(self, shape, index, plan=None):
        self.shape, self.index, self.plan = shape, index, plan

    def _plan(self):
        if self.plan is None:
            self.plan = _index_plan(self.shape, self.index)
        return self.plan

    def get(self, b):
        struct, lows = self._plan()
        return _kernel("index_get", struct)(b, *_host_ints(lows))

    def put(self, b, v):
        struct, lows = self._plan()
        return _kernel("index_put", struct)(b, v, *_host_ints(lows))

    def rule(self, shape, st, off, isz):
        return _index_rule(*self._plan())(shape, st, off, isz)

    def view(self) -> View:
        return View(self.get, self.put, self.rule)


def index_view(shape, index, same: bool = False):
    """Basic indexing ``x[index]`` (also narrow, slice, strided_slice); ``same``: an index that
    keeps every element in place gives ``SAME``, as Paddle's ``__getitem__`` does."""
    if same and _keeps_all(shape, index):
        return SAME
    return _Index(shape, index).view()


def unbind_views(shape, axis: int) -> list[View]:
    """unbind's outputs: the slices ``x[..., i, ...]`` along ``axis`` (one kernel for all)."""
    struct, lows = _index_plan(shape, (slice(None),) * axis + (0,))
    pre, post = lows[:axis], lows[axis + 1 :]
    return [_Index(None, None, (struct, (*pre, i, *post))).view() for i in range(shape[axis])]


def _diagonal_get(offset, a1, a2):
    return lambda b: jnp.diagonal(b, offset, a1, a2)


def _diagonal_put(offset, a1, a2):
    def put(b, v):
        n = v.shape[-1]
        rows = np.arange(n) + max(-offset, 0)
        cols = np.arange(n) + max(offset, 0)
        bt = jnp.moveaxis(b, (a1, a2), (-2, -1))
        return jnp.moveaxis(bt.at[..., rows, cols].set(v), (-2, -1), (a1, a2))

    return put


def diagonal_view(ndim: int, offset: int, axis1: int, axis2: int) -> View:
    """diagonal: the (axis1, axis2) diagonals as the last dim."""
    key = (offset, axis1 % ndim, axis2 % ndim)
    a1, a2 = key[1], key[2]

    def rule(shape, st, off, isz):
        n = max(0, min(shape[a1] - max(-offset, 0), shape[a2] - max(offset, 0)))
        if n:
            off += (offset * st[a2] if offset >= 0 else -offset * st[a1]) * isz
        rest = [s for i, s in enumerate(st) if i not in (a1, a2)]
        return rest + [st[a1] + st[a2]], off

    return View(
        _kernel("diagonal_get", *key),
        _kernel("diagonal_put", *key),
        rule,
    )


def _windows(n: int, size: int, step: int) -> np.ndarray:
    count = (n - size) // step + 1
    return (np.arange(count)[:, None] * step + np.arange(size)[None, :]).reshape(-1)


def _unfold_get(axis, size, step):
    def get(b):
        idx = _windows(b.shape[axis], size, step)
        y = jnp.take(b, idx, axis=axis)
        y = y.reshape(b.shape[:axis] + (idx.size // size, size) + b.shape[axis + 1 :])
        return jnp.moveaxis(y, axis + 1, -1)

    return get


def _unfold_put(axis, size, step):
    def put(b, v):
        idx = _windows(b.shape[axis], size, step)
        y = jnp.moveaxis(v, -1, axis + 1).reshape(b.shape[:axis] + (-1,) + b.shape[axis + 1 :])
        bt = jnp.moveaxis(b, axis, 0).at[idx].set(jnp.moveaxis(y, axis, 0))
        return jnp.moveaxis(bt, 0, axis)

    return put


def unfold_view(axis: int, size: int, step: int) -> View:
    """Tensor.unfold: windows of ``size`` every ``step`` along ``axis``, as a new last dim (a
    write to overlapping windows keeps one of the values written to an element)."""

    def rule(shape, st, off, isz):
        return st[:axis] + [st[axis] * step] + st[axis + 1 :] + [st[axis]], off

    return View(
        _kernel("unfold_get", axis, size, step),
        _kernel("unfold_put", axis, size, step),
        rule,
    )


def _strided_index(shape, strides, start: int) -> np.ndarray:
    idx = np.full(tuple(shape), start, np.int64)
    for d, (n, s) in enumerate(zip(shape, strides)):
        idx += (np.arange(n, dtype=np.int64) * s).reshape([n] + [1] * (len(shape) - d - 1))
    return idx


def _strided_get(shape, stride, start):
    return lambda r: r.reshape(-1)[_strided_index(shape, stride, start)]


def _strided_put(shape, stride, start):
    def put(r, v):
        return r.reshape(-1).at[_strided_index(shape, stride, start)].set(v).reshape(r.shape)

    return put


def strided_view(shape, stride, offset: int, itemsize: int) -> View:
    """as_strided: ``shape``/``stride`` (elements) from byte ``offset`` of the buffer itself."""
    key = (tuple(shape), tuple(stride), offset // itemsize)
    return View(
        _kernel("strided_get", *key),
        _kernel("strided_put", *key),
        _layout_of(stride, offset, shape),
        root=True,
    )


# -- reinterpreting views: view(dtype), real/imag, as_real/as_complex ----------------------------
def _to_bytes(x):
    """x's bytes: shape [..., n * itemsize] uint8 (a 0-d x gives [itemsize])."""
    if x.dtype == jnp.bool_:
        u = x.astype(jnp.uint8)[..., None]
    elif jnp.issubdtype(x.dtype, jnp.complexfloating):
        parts = jnp.stack([jnp.real(x), jnp.imag(x)], axis=-1)
        u = lax.bitcast_convert_type(parts, jnp.uint8).reshape(x.shape + (-1,))
    elif x.dtype.itemsize == 1:
        u = lax.bitcast_convert_type(x, jnp.uint8)[..., None]
    else:
        u = lax.bitcast_convert_type(x, jnp.uint8)
    return u.reshape(x.shape[:-1] + (-1,)) if x.ndim else u


def _from_bytes(u, dt, shape):
    """Bytes [..., m] -> dtype ``dt`` of ``shape``."""
    dt = np.dtype(dt)
    u = u.reshape(tuple(shape) + (dt.itemsize,))
    if dt == np.bool_:
        return u[..., 0] != 0
    if dt.kind == "c":
        half = np.dtype(f"f{dt.itemsize // 2}")
        parts = lax.bitcast_convert_type(u.reshape(tuple(shape) + (2, -1)), half)
        return lax.complex(parts[..., 0], parts[..., 1])
    if dt.itemsize == 1:
        return lax.bitcast_convert_type(u[..., 0], dt)
    return lax.bitcast_convert_type(u, dt)


def _view_shape(shape, a: int, b: int):
    if a == b:
        return tuple(shape)
    return tuple(shape[:-1]) + (shape[-1] * a // b,)


def reinterpret(x, dtype):
    """x's bytes read as ``dtype`` (Paddle's ``view(dtype)``): an itemsize change scales the
    last dim."""
    dt = np.dtype(dtype)
    a, b = x.dtype.itemsize, dt.itemsize
    if x.dtype.kind in "bc" or dt.kind in "bc":  # bool and complex go through the bytes
        return _from_bytes(_to_bytes(x), dt, _view_shape(x.shape, a, b))
    if a == b:
        return lax.bitcast_convert_type(x, dt)
    if a > b:  # one element -> a/b elements along a new last dim, merged into the last dim
        return lax.bitcast_convert_type(x, dt).reshape(_view_shape(x.shape, a, b))
    k = b // a
    return lax.bitcast_convert_type(x.reshape(x.shape[:-1] + (x.shape[-1] // k, k)), dt)


def _reinterpret_back(b, v):
    """The base ``b`` after its reinterpreting view became ``v``."""
    if v.dtype == jnp.bool_:  # keep the bytes whose truth did not change (Paddle's raw bytes)
        old = _to_bytes(b)
        old = old.reshape(v.shape) if old.size == v.size else old
        new = jnp.where((old != 0) == v, old, v.astype(jnp.uint8))
        return _from_bytes(new, b.dtype, b.shape)
    return reinterpret(v, b.dtype).reshape(b.shape)


def _dtype_error(what: str):
    return ValueError(f"(InvalidArgument) {what}")


def dtype_view(base, dtype) -> View:
    """view(dtype): the same bytes as another dtype; Paddle refuses an itemsize change when the
    last dim's stride is not 1."""
    dt = _dt.to_dtype(dtype).np
    src = base._val.dtype
    if dt == src:
        return SAME  # Paddle returns the input itself
    a, b = src.itemsize, dt.itemsize
    if a != b:
        lay = layout(base)
        last = lay[0][-1] if lay is not None and lay[0] else 1
        if last != 1:
            where = "-1" if a > b else str(base._val.ndim - 1)
            raise _dtype_error(
                f"input.strides[{where}] must be 1 to view {_dt.to_dtype(src).name} as "
                f"{_dt.to_dtype(dt).name}, but got {last}"
            )

    def rule(shape, st, off, isz):
        if a == b or not st:
            return list(st), off
        k = a // b if a > b else b // a
        return ([s * k for s in st[:-1]] if a > b else [s // k for s in st[:-1]]) + [1], off

    return View(_kernel("reinterpret", dt), _kernel("back"), rule)


def complex_part_view(imag: bool) -> View:
    """real(x)/imag(x) of a complex x: every other float of its buffer."""

    def rule(shape, st, off, isz):
        return [2 * s for s in st], off + (isz // 2 if imag else 0)

    if imag:
        return View(_kernel("imag"), _kernel("imag_put"), rule)
    return View(_kernel("real"), _kernel("real_put"), rule)


def as_real_view() -> View:
    """as_real: a complex [...] Tensor's floats as [..., 2]."""
    return View(
        _kernel("as_real"),
        _kernel("as_real_put"),
        lambda shape, st, off, isz: ([2 * s for s in st] + [1], off),
    )


def as_complex_view() -> View:
    """as_complex: a float [..., 2] Tensor's pairs as complex numbers."""
    return View(
        _kernel("as_complex"),
        _kernel("as_complex_put"),
        lambda shape, st, off, isz: ([s // 2 for s in st[:-1]], off),
    )


_BUILDERS = {
    "index_get": _index_get,
    "index_put": _index_put,
    "diagonal_get": _diagonal_get,
    "diagonal_put": _diagonal_put,
    "unfold_get": _unfold_get,
    "unfold_put": _unfold_put,
    "strided_get": _strided_get,
    "strided_put": _strided_put,
    "reinterpret": lambda dt: lambda v: reinterpret(v, dt),
    "back": lambda: _reinterpret_back,
    "reshape_get": lambda shape: lambda b: lax.reshape(b, shape),
    "reshape_put": lambda: lambda b, v: lax.reshape(v, b.shape),
    "permute": lambda perm: lambda b: lax.transpose(b, perm),
    "permute_put": lambda inverse: lambda b, v: lax.transpose(v, inverse),
    "real": lambda: jnp.real,
    "imag": lambda: jnp.imag,
    "real_put": lambda: lambda b, v: lax.complex(v, jnp.imag(b)),
    "imag_put": lambda: lambda b, v: lax.complex(jnp.real(b), v),
    "as_real": lambda: lambda b: jnp.stack([jnp.real(b), jnp.imag(b)], axis=-1),
    "as_real_put": lambda: lambda b, v: lax.complex(v[..., 0], v[..., 1]),
    "as_complex": lambda: lambda b: lax.complex(b[..., 0], b[..., 1]),
    "as_complex_put": lambda: lambda b, v: jnp.stack([jnp.real(v), jnp.imag(v)], axis=-1),
}
