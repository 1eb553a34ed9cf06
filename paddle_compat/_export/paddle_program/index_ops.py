"""Program rows for indexing and broadcasting ops that model-zoo exports use (PaddleClas 2.6's
Swin Transformer: ``roll``, ``index_select``, ``where``, ``floor_divide``, ``strided_slice``
and ``set_value_`` for its shifted-window mask; ViT: ``expand`` of the class token;
PaddleDetection's PP-YOLOE: ``meshgrid`` of its anchor points), merged
into ``layer.ROWS``. PIR layout measured on Paddle 3.3.1's files: sizes, starts, ends and
steps are inputs (``full_int_array`` or ``builtin.combine``), axes are attributes. Values the
host knows (the attention mask built from constants) fold on the host, as in ``op_table``.
"""

from __future__ import annotations

import numpy as np

from ..._core.registry import call_op
from ..._core.tensor import Tensor
from . import op_table as _ot
from .program import ProgramError

Row = _ot.Row


def _int_list(v, what: str) -> list[int]:
    """An IntArray input: one host array, or a ``builtin.combine`` list of one-element ones."""
    if isinstance(v, list):
        return [_ot._ints(e, what)[0] for e in v]
    return _ot._ints(v, what)


def _expand(args, a):
    """``expand``: broadcast ``x`` to ``shape`` (-1 keeps a dim)."""
    x = args[0]
    shape = _int_list(args[1], "expand's shape") if len(args) > 1 else list(a["shape"])
    if not isinstance(x, Tensor):
        x = np.asarray(x)
        lead = len(shape) - x.ndim
        tgt = [x.shape[i - lead] if d == -1 else d for i, d in enumerate(shape)]
        return np.broadcast_to(x, tgt).copy()
    return call_op("expand", x, shape)


def _tile(args, a):
    """``tile``: ``x`` repeated ``repeat_times`` along each dim."""
    x = args[0]
    reps = _int_list(args[1], "tile's repeat_times") if len(args) > 1 else list(a["repeat_times"])
    if not isinstance(x, Tensor):
        return np.tile(np.asarray(x), reps)
    return call_op("tile", x, reps)


def _roll(args, a):
    """``roll``: shift ``x`` by ``shifts`` along ``axis`` (empty: over the flattened array)."""
    x = args[0]
    shifts = _int_list(args[1], "roll's shifts") if len(args) > 1 else list(a["shifts"])
    axis = [int(d) for d in a.get("axis", [])] or None
    if not isinstance(x, Tensor):
        return np.roll(np.asarray(x), shifts if axis else shifts[0], axis)
    return call_op("roll", x, shifts, axis)


def _index_select(args, a):
    axis = int(a.get("axis", a.get("dim", 0)))
    x, index = args[0], args[1]
    if _ot._all_const(x, index):
        return np.take(np.asarray(x), np.asarray(index), axis=axis)
    return call_op("index_select", _ot._t(x), _ot._t(index), axis)


def _where(args, a):
    cond, x, y = args
    if _ot._all_const(cond, x, y):
        return np.where(np.asarray(cond), np.asarray(x), np.asarray(y))
    return call_op("where", _ot._t(cond), _ot._t(x), _ot._t(y))


def _topk(args, a):
    """``topk`` (legacy ``top_k_v2``): the ``k`` largest (or smallest) values along ``axis`` and
    their int64 indices. PIR passes ``k`` as an input, which a program may compute from data
    (PaddleDetection's RPN: ``minimum(post_nms_top_n, number of proposals)``)."""
    x = args[0]
    if len(args) > 1 and args[1] is not None:
        k = _ot._ints(args[1], "topk's k")[0]
    else:
        k = int(a["k"])
    axis, largest = int(a.get("axis", -1)), bool(a.get("largest", True))
    return tuple(call_op("topk", _ot._t(x), k, axis, largest, bool(a.get("sorted", True))))


def _gather(args, a):
    """``gather``: rows of ``x`` (along ``axis``: an input in PIR, an attribute or the ``Axis``
    input in 2.x programs) picked by a 1-D ``index``."""
    x, index = args[0], args[1]
    axis = args[2] if len(args) > 2 and args[2] is not None else a.get("axis", 0)
    axis = _ot._ints(axis, "gather's axis")[0]
    if _ot._all_const(x, index):
        return np.take(np.asarray(x), np.asarray(index).reshape(-1), axis=axis)
    return call_op("gather", _ot._t(x), _ot._t(index), axis)


def _argsort(args, a):
    """``argsort``: (sorted values, their int64 indices) along ``axis``."""
    x, axis = _ot._t(args[0]), int(a.get("axis", -1))
    idx = call_op(
        "argsort", x, axis, bool(a.get("descending", False)), bool(a.get("stable", False))
    )
    return call_op("take_along_axis", x, idx, axis), idx


def _gather_nd(args, a):
    return call_op("gather_nd", _ot._t(args[0]), _ot._t(args[1]))


def _nonzero(args, a):
    """``nonzero`` (legacy ``where_index``): the [K, ndim] int64 indices of the nonzero
    entries (K is data: a host step between compiled segments)."""
    return call_op("nonzero", _ot._t(args[0]))


def _scatter(args, a):
    """``scatter(x, index, updates)``: rows of ``x`` at ``index`` replaced (``overwrite``) or
    summed into."""
    x, index, updates = (_ot._t(v) for v in args[:3])
    return call_op("scatter", x, index, updates, bool(a.get("overwrite", True)))


def _meshgrid(args, a):
    """``meshgrid`` of a ``builtin.combine`` list (``ij`` indexing): one list of grids."""
    xs = args[0]
    if _ot._all_const(*xs):
        return list(np.meshgrid(*(np.asarray(x) for x in xs), indexing="ij"))
    return list(call_op("meshgrid", [_ot._t(x) for x in xs]))


def _slices(ndim, axes, starts, ends, steps, drop=()) -> tuple:
    """The index tuple (Python slice semantics; an axis in ``drop`` indexed by its start)."""
    idx = [slice(None)] * ndim
    for ax, s, e, st in zip(axes, starts, ends, steps):
        if st == 0:
            raise ProgramError("a strided slice has step 0.")
        idx[ax % ndim] = s if ax in drop else slice(s, e, st)
    return tuple(idx)


def _strided_slice(args, a):
    """``strided_slice``: ``x[s:e:step]`` along ``axes``."""
    x = args[0]
    axes = [int(d) for d in a["axes"]]
    if len(args) >= 4:
        starts, ends, steps = (_int_list(v, "strided_slice's bounds") for v in args[1:4])
    else:
        starts, ends, steps = list(a["starts"]), list(a["ends"]), list(a["strides"])
    dec = [int(d) for d in a.get("decrease_axis", [])]
    if not isinstance(x, Tensor):
        x = np.asarray(x)
        return x[_slices(x.ndim, axes, starts, ends, steps, dec)]
    out = call_op("strided_slice", x, axes, starts, ends, steps)
    return call_op("squeeze", out, dec) if dec else out


def _set_value(args, a, value=None):
    """``set_value_``: ``x`` with ``x[slices] = value`` (the attribute ``values`` reshaped to
    ``shape``, or the ``values`` input); a new value here, as the replay never aliases."""
    x = args[0]
    starts, ends, steps = (_int_list(v, "set_value's bounds") for v in args[1:4])
    if a.get("none_axes"):
        raise ProgramError("set_value_ with none_axes (x[None, ...] = v) is not supported.")
    axes = [int(d) for d in a["axes"]]
    dec = [int(d) for d in a.get("decrease_axes", [])]
    if value is None:
        shape = _ot._attr_size(a.get("shape", []), "set_value's shape")
        value = np.asarray(a.get("values", []), np.float64).reshape(shape)
    if not isinstance(x, Tensor) and not isinstance(value, Tensor):
        out = np.array(x, copy=True)
        out[_slices(out.ndim, axes, starts, ends, steps, dec)] = value
        return out
    out = call_op("assign", _ot._t(x))
    v = value if isinstance(value, Tensor) else np.asarray(value, out._value.dtype)
    out[_slices(len(out.shape), axes, starts, ends, steps, dec)] = v
    return out


def _set_value_with_tensor(args, a):
    """``set_value_with_tensor_``: (x, values, starts, ends, steps)."""
    return _set_value([args[0], *args[2:5]], a, args[1])


ROWS = {
    "pd_op.expand": Row(_expand),
    "pd_op.roll": Row(_roll),
    "pd_op.tile": Row(_tile),
    "pd_op.index_select": Row(_index_select),
    "pd_op.where": Row(_where),
    "pd_op.meshgrid": Row(_meshgrid),
    "pd_op.topk": Row(_topk),
    "top_k_v2": Row(_topk, ("X", "K"), ("Out", "Indices")),
    "pd_op.gather": Row(_gather),
    "pd_op.argsort": Row(_argsort),
    "argsort": Row(_argsort, ("X",), ("Out", "Indices")),
    "pd_op.gather_nd": Row(_gather_nd),
    "gather_nd": Row(_gather_nd, ("X", "Index")),
    "pd_op.nonzero": Row(_nonzero),
    "where_index": Row(_nonzero, ("Condition",)),
    "pd_op.scatter": Row(_scatter),
    "scatter": Row(_scatter, ("X", "Ids", "Updates")),
    "gather": Row(_gather, ("X", "Index", "Axis")),
    "pd_op.floor_divide": Row(_ot._binary("floor_divide", np.floor_divide)),
    "pd_op.strided_slice": Row(_strided_slice),
    "pd_op.set_value_": Row(_set_value),
    "pd_op.set_value": Row(_set_value),
    "pd_op.set_value_with_tensor_": Row(_set_value_with_tensor),
    "pd_op.set_value_with_tensor": Row(_set_value_with_tensor),
}
