"""Gather/scatter-style manipulation: gather(_nd), scatter(_nd)(_add), index_select/add/fill/put,
take/put_along_axis, where, masked_fill/scatter, repeat_interleave, *_scatter, shard_index."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._core import dtype as _dt
from .._core import runtime_checks as _rc
from .._core import trace_state
from .._core.autograd import rebind_inplace
from .._core.op_args import Overload
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor, to_device
from .manipulation import axis_of, int_list


def _check_index(idx, what, name="Index"):
    if isinstance(idx, list | tuple):
        raise ValueError(f"{what}(): argument 'index' must be Tensor, but got list")
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise ValueError(
            f"Input({name}) of {what} holds the wrong type, it holds "
            f"{_dt.to_dtype(idx.dtype).name}, but desires to be int32 or int64."
        )


def _same_dtype(x, v, what):
    if x.dtype != v.dtype:
        raise ValueError(
            f"{what}: the dtype of updates ({_dt.to_dtype(v.dtype).name}) "
            f"must be the same as x ({_dt.to_dtype(x.dtype).name})."
        )


def _host(t, what):
    if isinstance(t, Tensor):
        trace_state.check_concrete(t, what)
        return np.asarray(t._value)
    return np.asarray(t)


def _wrap(idx, n):
    """Negative indices count from the end (as Paddle's gather kernels do)."""
    return jnp.where(idx < 0, idx + n, idx)


def _last_wins(idx, n):
    """Index vector with every duplicate but the last replaced by ``n`` (dropped by scatter)."""
    pos = jnp.arange(idx.shape[0])
    last = jnp.full((n,), -1, pos.dtype).at[idx].max(pos, mode="drop")
    return jnp.where(last[idx] == pos, idx, n)


# -- index checks (Paddle's kernels raise on out-of-range indices; see runtime_checks) --------
_SELECT_MSG = (
    "(InvalidArgument) Variable value (index) of OP({op}) expected >= {{lo}} and < {{hi}}, but "
    "got {{bad}}. Please check input value."
)
_KERNEL_MSG = (
    "(OutOfRange) Variable value (index) of {op} cpu kernel, expected >= {{lo}} and < {{hi}}, "
    "but got {{bad}}.Please check the input value."
)


def _check_gather(v):
    _rc.check_index(
        v["index"],
        v["x"],
        0 if v["axis"] is None else v["axis"],
        IndexError,
        "(OutOfRange) The element of Index must be less than the size of input dim size of "
        "axis which is {hi}, but received index element which is {bad} in the {pos} index.",
        "(OutOfRange) The element of Index must be greater than or equal to {lo}, but received "
        "index element which is {bad} in the {pos} index.",
    )


def _check_columns(v, x_name, error, message, low_message=None):
    """Index whose last dim holds coordinates into the leading dims of ``x`` (gather_nd)."""
    index, x = v["index"], v[x_name]
    if not _dt.is_integer(getattr(index, "dtype", "float32")) or not index.shape:
        return
    shape = [int(d) for d in (x if x_name == "shape" else getattr(x, "shape", ()))]
    a = index._value if isinstance(index, Tensor) else np.asarray(index)
    if not trace_state.is_tracer(a):
        a = np.asarray(a)
    for j in range(min(a.shape[-1], len(shape))):
        _rc.check_in_range(a[..., j], -shape[j], shape[j], error, message, low_message)


def _check_index_select(v):
    msg = _SELECT_MSG.format(op="index_select")
    _rc.check_index(v["index"], v["x"], v["axis"], ValueError, msg)


def _check_along_axis(kernel, arr="arr", index="indices"):
    def check(v):
        _rc.check_index(v[index], v[arr], v["axis"], IndexError, _KERNEL_MSG.format(op=kernel))

    return check


def _check_scatter(v):
    _rc.check_index(
        v["index"],
        v["x"],
        0,
        IndexError,
        "(OutOfRange) The index is out of bounds, please check whether the values of index "
        "and dimensions of input meet the requirements. each index should be less than "
        "1st-dim size ({hi}) of input, but received [{bad}]",
        "(OutOfRange) The index is out of bounds, please check whether the dimensions of "
        "index and input meet the requirements. It should be greater than or equal to [{lo}], "
        "but received [{bad}]",
    )


_ND_MSG = (
    "(OutOfRange) The index is out of bounds, please check whether the dimensions of index "
    "and input meet the requirements. It should be less than [{hi}] and greater or equal to "
    "[{lo}], but received [{bad}]"
)


def _check_slices(op, error, msg=_SELECT_MSG):
    """index_add / index_fill: a 1-D index of slices along ``axis``."""

    def check(v):
        _rc.check_index(v["index"], v["x"], v["axis"], error, msg.format(op=op))

    return check


# -- gather -----------------------------------------------------------------------------------
@op("gather", tensors=("x", "index"), check=_check_gather)
def gather(
    x: jax.Array,
    index: jax.Array,
    axis: int | None = None,
    name: str | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """Rows (or slices along ``axis``) of ``x`` at ``index`` (1-D or 0-d)."""
    _check_index(index, "gather")
    ax = 0 if axis is None else axis_of(int(axis), x.ndim)
    idx = _wrap(index, x.shape[ax])
    return jnp.take(x, idx if idx.ndim == 0 else idx.reshape(-1), axis=ax, mode="clip")


@op(
    "gather_nd",
    tensors=("x", "index"),
    check=lambda v: _check_columns(
        v,
        "x",
        ValueError,
        "(InvalidArgument) Input(index[-1)] has wrong value, it is [{bad}]",
        "(InvalidArgument) The value of Input(index) must be no less than [{lo}]",
    ),
    aliases=NO_TORCH_KEYWORDS,
)
def gather_nd(x: jax.Array, index: jax.Array, name: str | None = None) -> jax.Array:
    """``x[index[..., 0], index[..., 1], ...]`` over the last dim of ``index``."""
    _check_index(index, "gather_nd")
    k = index.shape[-1]
    if k == 0:
        return jnp.broadcast_to(x, index.shape[:-1] + x.shape)
    return x[tuple(index[..., i] for i in range(k))]


def _torch_style_dim(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """Paddle 3.3's PyTorch-style ``index_select(input, dim, index)``: an int second argument
    is the axis."""
    if len(args) >= 2 and isinstance(args[1], int):
        if len(args) < 3 and "index" not in kwargs:
            raise TypeError("index_select() missing 1 required argument: 'index'")
        kwargs = dict(kwargs)
        kwargs.setdefault("axis", args[1])
        if len(args) > 2:
            kwargs.setdefault("index", args[2])
        args = (args[0], *args[3:])
    return args, kwargs


@op(
    "index_select",
    tensor_modules=("search",),
    tensors=("x", "index"),
    aliases={"dim": "axis"},
    check=_check_index_select,
    prebind=_torch_style_dim,
)
def index_select(
    x: jax.Array,
    index: jax.Array,
    axis: int = 0,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    """Slices of ``x`` along ``axis`` at the 1-D ``index``."""
    _check_index(index, "index_select")
    if index.ndim != 1:
        raise ValueError(
            "The 'shape' of Input(Index) must be 1-D tensor. But received: "
            f"the 'shape' of Input(Index) is {list(index.shape)}."
        )
    ax = axis_of(axis, x.ndim)
    return jnp.take(x, _wrap(index, x.shape[ax]), axis=ax, mode="clip")


@op(
    "take_along_axis",
    extra_names=("take_along_dim",),
    method_aliases=("take_along_dim",),
    tensors=("arr", "indices"),
    aliases={"input": "arr", "dim": "axis"},
    check=_check_along_axis("gather"),
)
def take_along_axis(
    arr: jax.Array,
    indices: jax.Array,
    axis: int,
    broadcast: bool = True,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    """Values of ``arr`` at ``indices`` along ``axis`` (other dims broadcast together)."""
    _check_index(indices, "take_along_axis")
    ax = axis_of(axis, arr.ndim)
    if indices.ndim != arr.ndim:
        raise ValueError(
            f"The rank of indices must equal the rank of arr: {indices.ndim} vs {arr.ndim}."
        )
    arr, indices = _align(arr, indices, ax, broadcast)
    indices = _wrap(indices, arr.shape[ax])
    return jnp.take_along_axis(arr, indices, axis=ax, mode="clip")


def _align(arr, indices, ax, broadcast):
    """Broadcast (or crop, without broadcast) the non-axis dims of arr and indices."""
    if broadcast:
        shape = [builtins.max(a, b) for a, b in zip(arr.shape, indices.shape)]
        ia = list(shape)
        ia[ax] = indices.shape[ax]
        indices = jnp.broadcast_to(indices, ia)
        aa = list(shape)
        aa[ax] = arr.shape[ax]
        return jnp.broadcast_to(arr, aa), indices
    lim = tuple(slice(None) if d == ax else slice(0, indices.shape[d]) for d in range(arr.ndim))
    return arr[lim], indices


# -- scatter ----------------------------------------------------------------------------------
_TORCH_SCATTER_KEYS = frozenset(("input", "dim", "src", "value", "reduce"))


def _torch_style_scatter(args: tuple, kwargs: dict):
    """Paddle 3.3's PyTorch-style ``scatter(input, dim, index, src (or value), *, reduce=None,
    out=None)``, recognised by an int second argument or its keywords: a non-broadcasting
    ``put_along_axis`` (``reduce=None`` is ``'assign'``)."""
    if not (len(args) >= 2 and isinstance(args[1], int)) and not (
        _TORCH_SCATTER_KEYS & kwargs.keys()
    ):
        return args, kwargs
    kw = dict(kwargs)
    names = ("input", "dim", "index", "src", "reduce")
    if len(args) > len(names):
        raise TypeError(f"scatter() takes at most {len(names)} positional arguments")
    for k, v in zip(names, args):
        if k in kw:
            raise TypeError(f"scatter() got multiple values for argument '{k}'")
        kw[k] = v
    if "value" in kw and "src" not in kw:
        kw["src"] = kw.pop("value")
    unknown = kw.keys() - {"input", "dim", "index", "src", "reduce", "out", "name"}
    missing = [k for k in ("input", "dim", "index", "src") if k not in kw]
    if unknown or missing:
        raise TypeError(
            "'paddle.scatter' expect one of the following input pattern: \n"
            " - (Tensor input, int dim, Tensor index, Tensor src (alias value), *, str reduce, "
            "Tensor out = None)\n"
            " - (Tensor x, Tensor index, Tensor updates, bool overwrite, str name = None)\n"
            "However, the input pattern does not match, please check."
        )
    reduce = kw.get("reduce")
    reduce = "assign" if reduce is None else reduce
    if not isinstance(reduce, str):
        raise TypeError(
            "(InvalidType) put_along_axis(): argument (position 5) must be str, but got "
            f"{type(reduce).__name__}"
        )
    call = (kw["input"], kw["index"], kw["src"], kw["dim"], reduce)
    extra = {"out": kw["out"]} if kw.get("out") is not None else {}
    return Overload("put_along_axis", call, {"broadcast": False, **extra})


def _scatter_inplace(*args, **kwargs):  # Paddle's scatter_: its overloads take any form
    pass


@op(
    "scatter",
    amp="black_always",
    tensors=("x", "index", "updates"),
    inplace="scatter_",
    check=_check_scatter,
    prebind=_torch_style_scatter,
    inplace_signature=_scatter_inplace,
)
def scatter(
    x: jax.Array,
    index: jax.Array,
    updates: jax.Array,
    overwrite: bool = True,
    name: str | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """Rows of ``x`` at ``index`` replaced by (overwrite) or summed from ``updates`` (rows
    that are hit are zeroed first when ``overwrite`` is False)."""
    _check_index(index, "scatter")
    _same_dtype(x, updates, "scatter")
    idx = index.reshape(-1)
    upd = updates.reshape((idx.shape[0],) + x.shape[1:])
    n = x.shape[0]
    idx = _wrap(idx, n)
    if overwrite:
        return x.at[_last_wins(idx, n)].set(upd, mode="drop")
    return x.at[idx].set(jnp.zeros_like(upd), mode="drop").at[idx].add(upd, mode="drop")


@op(
    "scatter_nd_add",
    tensors=("x", "index", "updates"),
    check=lambda v: _check_columns(v, "x", IndexError, _ND_MSG),
    aliases=NO_TORCH_KEYWORDS,
)
def scatter_nd_add(
    x: jax.Array, index: jax.Array, updates: jax.Array, name: str | None = None
) -> jax.Array:
    """``x`` plus ``updates`` summed at the coordinates in the last dim of ``index``."""
    _check_index(index, "scatter_nd_add")
    _same_dtype(x, updates, "scatter_nd_add")
    k = index.shape[-1]
    tgt = index.shape[:-1] + x.shape[k:]
    return x.at[tuple(index[..., i] for i in range(k))].add(
        jnp.broadcast_to(updates, tgt), mode="drop"
    )


@op(
    "scatter_nd",
    tensors=("index", "updates"),
    check=lambda v: _check_columns(v, "shape", IndexError, _ND_MSG),
)
def scatter_nd(
    index: jax.Array, updates: jax.Array, shape: Sequence[int], name: str | None = None
) -> jax.Array:
    """Zeros of ``shape`` with ``updates`` summed at ``index``."""
    return scatter_nd_add.fn(jnp.zeros(tuple(int_list(shape)), updates.dtype), index, updates)


@op(
    "index_add",
    tensors=("x", "index", "value"),
    aliases={"dim": "axis", "source": "value"},
    inplace="index_add_",
    inplace_keywords=True,
    check=_check_slices("index_add", ValueError),
)
def index_add(
    x: jax.Array,
    index: jax.Array,
    axis: int,
    value: jax.Array,
    alpha: float = 1,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> jax.Array:
    """``x`` plus ``alpha * value`` added at ``index`` along ``axis``."""
    _check_index(index, "index_add")
    ax = axis_of(axis, x.ndim)
    sl = (slice(None),) * ax + (index,)
    return x.at[sl].add((value * alpha).astype(x.dtype), mode="drop")


@op(
    "index_fill",
    tensors=("x", "index", "value"),
    inplace="index_fill_",
    check=_check_slices("index_fill", IndexError, _KERNEL_MSG),
    aliases=NO_TORCH_KEYWORDS,
)
def index_fill(
    x: jax.Array, index: jax.Array, axis: int, value: jax.Array, name: str | None = None
) -> jax.Array:
    """``x`` with the slices at ``index`` along ``axis`` set to ``value``."""
    _check_index(index, "index_fill")
    ax = axis_of(axis, x.ndim)
    sl = (slice(None),) * ax + (index.reshape(-1),)
    return x.at[sl].set(jnp.asarray(value).astype(x.dtype), mode="drop")


@op("_index_put", tensors=("x", "indices", "value"), namespaces=(), method=None)
def _index_put_kernel(x, indices, value, accumulate=False):
    idx = tuple(indices)
    v = value.astype(x.dtype)
    return x.at[idx].add(v, mode="drop") if accumulate else x.at[idx].set(v, mode="drop")


@op("index_put", composite=True, inplace="index_put_", inplace_keywords=True)
def index_put(
    x: Tensor,
    indices: Sequence[Tensor],
    value: Tensor | float,
    accumulate: bool = False,
    name: str | None = None,
) -> Tensor:
    """``x`` with ``value`` put (or accumulated) at the advanced index ``indices``."""
    idx = []
    for t in indices:
        if (t.dtype if isinstance(t, Tensor) else np.asarray(t).dtype) == _dt.bool_:
            idx.extend(np.nonzero(_host(t, "paddle.index_put with a boolean index")))
        else:
            idx.append(t)
    for dim, t in enumerate(idx):  # Paddle's kernel writes out of bounds here; we raise
        _rc.check_index(t, x, dim, IndexError, _KERNEL_MSG.format(op="index_put"))
    return _index_put_kernel(x, idx, value, accumulate)


_REDUCE = ("assign", "add", "mul", "multiply", "mean", "amin", "amax")


@op(
    "put_along_axis",
    tensors=("arr", "indices", "values"),
    inplace="put_along_axis_",
    aliases={"input": "arr"},
    check=_check_along_axis("scatter"),
)
def put_along_axis(
    arr: jax.Array,
    indices: jax.Array,
    values: jax.Array,
    axis: int,
    reduce: str = "assign",
    include_self: bool = True,
    broadcast: bool = True,
) -> jax.Array:
    """Put ``values`` into ``arr`` at ``indices`` along ``axis`` with a reduction."""
    if not isinstance(reduce, str):
        raise TypeError(
            f"(InvalidType) put_along_axis(): argument 'reduce' must be str, but got "
            f"{type(reduce).__name__}"
        )
    if reduce not in _REDUCE:
        raise ValueError(
            f"can not support reduce: '{reduce}' for scatter kernel, only "
            "support reduce op: 'add', 'assign', 'mul', 'mean', 'amin', 'amax' and 'multiply'."
        )
    _check_index(indices, "put_along_axis")
    ax = axis_of(axis, arr.ndim)
    if broadcast:
        shape = [builtins.max(a, b) for a, b in zip(arr.shape, indices.shape)]
        shape[ax] = indices.shape[ax]
        indices = jnp.broadcast_to(indices, shape)
    else:
        values = _crop_values(arr, indices, values, ax)
    values = jnp.broadcast_to(jnp.asarray(values).astype(arr.dtype), indices.shape)
    grids = jnp.meshgrid(*[jnp.arange(s) for s in indices.shape], indexing="ij")
    n = arr.shape[ax]
    grids[ax] = jnp.where(indices < 0, indices + n, indices)
    at = arr.at[tuple(grids)]
    if reduce == "assign":
        return at.set(values, mode="drop")
    if reduce == "add":
        base = arr if include_self else at.set(0, mode="drop")
        return base.at[tuple(grids)].add(values, mode="drop")
    if reduce in ("mul", "multiply"):
        base = arr if include_self else at.set(1, mode="drop")
        return base.at[tuple(grids)].multiply(values, mode="drop")
    if reduce in ("amin", "amax"):
        fill = _extreme(arr.dtype, reduce == "amin")
        base = arr if include_self else at.set(fill, mode="drop")
        ref = base.at[tuple(grids)]
        return ref.min(values, mode="drop") if reduce == "amin" else ref.max(values, mode="drop")
    # mean
    cnt = jnp.zeros(arr.shape, jnp.int64 if _dt.is_integer(arr.dtype) else arr.dtype)
    cnt = cnt.at[tuple(grids)].add(1, mode="drop")
    base = arr if include_self else at.set(0, mode="drop")
    tot = base.at[tuple(grids)].add(values, mode="drop")
    denom = cnt + (1 if include_self else 0)
    if _dt.is_integer(arr.dtype):
        mean = jnp.floor_divide(tot, jnp.maximum(denom, 1).astype(arr.dtype))
    else:
        mean = tot / jnp.maximum(denom, 1).astype(arr.dtype)
    return jnp.where(cnt > 0, mean.astype(arr.dtype), arr)


def _crop_values(arr, indices, values, ax):
    """Without broadcasting (PyTorch's scatter): ``indices`` may be smaller than ``values`` in
    every dim and than ``arr`` off ``axis``; only ``values``' leading block is used."""
    values = jnp.asarray(values)
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions!")
    if values.ndim == 0:
        return values
    if values.ndim != indices.ndim:
        raise ValueError("`indices` and `values` must have the same number of dimensions!")
    for d, n in enumerate(indices.shape):
        if n > values.shape[d] or (d != ax and n > arr.shape[d]):
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index paddle.Size("
                f"{list(indices.shape)}) to be smaller than self paddle.Size({list(arr.shape)}) "
                f"apart from dimension {ax} and to be smaller size than values paddle.Size("
                f"{list(values.shape)})"
            )
    return values[tuple(slice(0, n) for n in indices.shape)]


def _extreme(dt, high):
    if jnp.issubdtype(dt, jnp.floating):
        return jnp.inf if high else -jnp.inf
    info = jnp.iinfo(dt) if jnp.issubdtype(dt, jnp.integer) else None
    if info is None:
        return high
    return info.max if high else info.min


# -- where / masks ----------------------------------------------------------------------------
@op("_where", tensors=("condition", "x", "y"), promote=("x", "y"), namespaces=(), method=None)
def _where(condition, x, y):
    return jnp.where(condition, x, y)


def _scalar_tensor(v):
    """Paddle's where turns Python scalars into tensors (int64 / default float / bool) before
    promoting, so ``where(c, int32_tensor, 2)`` is a TypeError as in Paddle."""
    if isinstance(v, Tensor):
        return v
    if isinstance(v, bool | int | float | complex):
        return Tensor(to_device(np.asarray(v, _dt.to_dtype(type(v)).np), owned=True))
    raise ValueError(
        f"(InvalidArgument) where(): arguments x and y must be Tensors or Python scalars, but "
        f"got {type(v).__name__}"
    )


def _check_cond(condition):
    if isinstance(condition, Tensor) and condition.dtype is not _dt.bool_:
        raise ValueError(
            "The `condition` is expected to be a boolean Tensor, but got a Tensor with dtype "
            f"{condition.dtype}"
        )


@op("where", tensor_modules=("search",), composite=True)
def where(
    condition: Tensor,
    x: Tensor | float | None = None,
    y: Tensor | float | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor | tuple[Tensor, ...]:
    """Elementwise ``x if condition else y`` (Paddle promotion of x and y); with only
    ``condition``, the tuple of int64 coordinates of its True entries."""
    if x is None and y is None:
        a = _host(
            condition,
            "paddle.where(condition) (data-dependent shape; use paddle.where(condition, x, y))",
        )
        return tuple(Tensor(to_device(i.astype(np.int64), owned=True)) for i in np.nonzero(a))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    _check_cond(condition)
    return _where(condition, _scalar_tensor(x), _scalar_tensor(y))


@op("where_", tensor_modules=("search",), composite=True, aliases=NO_TORCH_KEYWORDS)
def where_(
    condition: Tensor,
    x: Tensor | None = None,
    y: Tensor | float | None = None,
    name: str | None = None,
) -> Tensor:
    """In-place where: the result is written into ``x``."""
    if not isinstance(x, Tensor):
        raise TypeError("where_: x must be a Tensor")
    _check_cond(condition)
    out = _where(condition, x, _scalar_tensor(y))
    from .._core import autograd

    if not x.stop_gradient and x._node is None and autograd.is_grad_enabled():
        raise ValueError(
            f"(InvalidArgument) Leaf Tensor (shape {x.shape}) that doesn't stop gradient "
            "can't use inplace strategy."
        )
    return rebind_inplace(x, out)


@op(
    "masked_fill", tensors=("x", "mask", "value"), inplace="masked_fill_", aliases=NO_TORCH_KEYWORDS
)
def masked_fill(
    x: jax.Array, mask: jax.Array, value: jax.Array, name: str | None = None
) -> jax.Array:
    """``x`` with the entries where ``mask`` is True set to ``value`` (cast to x's dtype).
    As in Paddle 3.3.1, no gradient flows to a Tensor ``value``."""
    v = lax.stop_gradient(jnp.asarray(value).astype(x.dtype))
    return jnp.where(mask.astype(bool), v, x)


@op(
    "masked_scatter",
    tensors=("x", "mask", "value"),
    inplace="masked_scatter_",
    aliases=NO_TORCH_KEYWORDS,
)
def masked_scatter(
    x: jax.Array, mask: jax.Array, value: jax.Array, name: str | None = None
) -> jax.Array:
    """``x`` with the True positions of ``mask`` filled, in order, from ``value``."""
    m = jnp.broadcast_to(mask.astype(bool), x.shape).reshape(-1)
    pos = jnp.clip(jnp.cumsum(m) - 1, 0, builtins.max(value.size - 1, 0))
    src = value.reshape(-1).astype(x.dtype)[pos]
    return jnp.where(m, src, x.reshape(-1)).reshape(x.shape)


# -- repeat_interleave ------------------------------------------------------------------------
@op("_repeat_interleave", tensors=("x", "repeats"), namespaces=(), method=None)
def _repeat_interleave(x, repeats, axis, total):
    if axis is None:
        x, axis = x.reshape(-1), 0
    return jnp.repeat(x, repeats, axis=axis, total_repeat_length=total)


@op("_repeat_interleave_int", namespaces=(), method=None)
def _repeat_interleave_int(x, repeats, axis):
    if axis is None:
        return jnp.repeat(x.reshape(-1), repeats)
    return jnp.repeat(x, repeats, axis=axis_of(axis, x.ndim))


@op("repeat_interleave", composite=True, aliases={"dim": "axis"})
def repeat_interleave(
    x: Tensor,
    repeats: int | Tensor,
    axis: int | None = None,
    name: str | None = None,
    *,
    output_size: int | None = None,
) -> Tensor:
    """Repeat each element (or slice along ``axis``) ``repeats`` times."""
    if isinstance(repeats, int | np.integer):
        return _repeat_interleave_int(x, int(repeats), axis)
    if not isinstance(repeats, Tensor):
        raise TypeError(
            "(InvalidType) repeat_interleave(): argument (position 2) must be int or Tensor, "
            f"but got {type(repeats).__name__}"
        )
    ax = None if axis is None else axis_of(int(axis), x.ndim)
    n = x.size if ax is None else x.shape[ax]
    if repeats.ndim != 1 or repeats.shape[0] != n:
        raise ValueError(
            "(InvalidArgument) The length of Input(RepeatsTensor) must be the same as length "
            f"of Input(X) in axis. But received: {list(repeats.shape)}, required: [{n}]."
        )
    _rc.check_in_range(
        repeats,
        0,
        np.iinfo(np.int64).max,
        ValueError,
        "(InvalidArgument) repeats must grater or equal than 0, but got {bad}",
    )
    if output_size is None:
        output_size = int(
            _host(repeats, "paddle.repeat_interleave with Tensor repeats (pass output_size)").sum()
        )
    return _repeat_interleave(x, repeats, ax, int(output_size))


# -- *_scatter --------------------------------------------------------------------------------
@op("select_scatter", tensors=("x", "values"), aliases=NO_TORCH_KEYWORDS)
def select_scatter(
    x: jax.Array, values: jax.Array, axis: int, index: int, name: str | None = None
) -> jax.Array:
    """``x`` with the slice at ``index`` along ``axis`` replaced by ``values``."""
    ax = axis_of(axis, x.ndim)
    n = x.shape[ax]
    if not -n <= index < n:
        raise IndexError(
            f"(OutOfRange) select_scatter: index {index} out of range for dim {ax} of size {n}."
        )
    sl = (slice(None),) * ax + (index % n,)
    _same_dtype(x, values, "select_scatter")
    return x.at[sl].set(values)


@op("slice_scatter", tensors=("x", "value"), aliases=NO_TORCH_KEYWORDS)
def slice_scatter(
    x: jax.Array,
    value: jax.Array,
    axes: Sequence[int],
    starts: Sequence[int],
    ends: Sequence[int],
    strides: Sequence[int],
    name: str | None = None,
) -> jax.Array:
    """``x`` with the strided slice given by axes/starts/ends/strides replaced by ``value``."""
    sl = [slice(None)] * x.ndim
    for a, s, e, st in zip(int_list(axes), int_list(starts), int_list(ends), int_list(strides)):
        sl[axis_of(a, x.ndim)] = slice(s, e, st)
    _same_dtype(x, value, "slice_scatter")
    return x.at[tuple(sl)].set(value)


@op("diagonal_scatter", tensors=("x", "y"), aliases=NO_TORCH_KEYWORDS)
def diagonal_scatter(
    x: jax.Array,
    y: jax.Array,
    offset: int = 0,
    axis1: int = 0,
    axis2: int = 1,
    name: str | None = None,
) -> jax.Array:
    """``x`` with its (offset, axis1, axis2) diagonal replaced by ``y``."""
    a1, a2 = axis_of(axis1, x.ndim), axis_of(axis2, x.ndim)
    n1, n2 = x.shape[a1], x.shape[a2]
    r0, c0 = (0, offset) if offset >= 0 else (-offset, 0)
    k = builtins.max(0, builtins.min(n1 - r0, n2 - c0))
    rows, cols = np.arange(k) + r0, np.arange(k) + c0
    moved = jnp.moveaxis(x, (a1, a2), (-2, -1))
    moved = moved.at[..., rows, cols].set(y.astype(x.dtype))
    return jnp.moveaxis(moved, (-2, -1), (a1, a2))


@op("shard_index", differentiable=False)
def shard_index(
    input: jax.Array, index_num: int, nshards: int, shard_id: int, ignore_value: int = -1
) -> jax.Array:
    """Map global ids to ids local to shard ``shard_id`` (others -> ``ignore_value``)."""
    size = (index_num + nshards - 1) // nshards
    return jnp.where(input // size == shard_id, input % size, ignore_value).astype(input.dtype)
