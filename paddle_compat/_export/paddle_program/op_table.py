"""Paddle program ops -> registry ops: one row per op name as Paddle's files spell it (PIR:
``pd_op.conv2d``, ``builtin.combine``; the 2.x protobuf: ``conv2d``, ``elementwise_add``).

A row is ``Row(fn, ins, outs)``. ``fn(args, attrs)`` gets the op's inputs in order and its
attributes, and returns one value or a tuple (one per output); a control-flow row
(``blocks=True``, in ``control_flow.py``, merged with these rows in ``layer.ROWS``) is called
``fn(args, attrs, blocks, run)``, where ``run(block, values)`` runs a sub-block with its
arguments bound and returns what it yields (a 2.x one ``fn(op, env, run)``, by variable name).
PIR inputs and outputs are positional; a legacy row names the input slots it reads (``ins``; a
trailing ``*`` takes the whole list of the slot) and the output slots it writes (``outs``).
Values are Tensors, or numpy arrays for what Paddle computes from constants and static shapes
(``full_int_array``, ``shape64``, ``slice`` of a shape ...): these fold on the host, so reshape
targets and pooling sizes stay static under ``jax.jit``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..._core.registry import call_op
from ..._core.tensor import Tensor, to_device
from ..._io._tensor_binary import DTYPE_OF_VAR_TYPE
from ...jit.dy2static.lax_control import is_traced
from .program import DataDependentStep, ProgramError


@dataclass(frozen=True)
class Row:
    fn: object
    ins: tuple[str, ...] | None = None  # legacy input slots ("Name*": the whole list)
    outs: tuple[str, ...] = ("Out",)  # legacy output slots
    blocks: bool = False  # a control-flow op: fn(args, attrs, blocks, run)


def _t(v):
    """A value as a Tensor (numpy constants become Tensors)."""
    if v is None or isinstance(v, Tensor):
        return v
    return Tensor(to_device(v))


def _c(v, what: str) -> np.ndarray:
    """A value that must be known when the program is traced (a shape, a size): a host
    constant, or a concrete Tensor's value (an eager replay reads it, as Paddle's executor)."""
    if isinstance(v, Tensor) and not is_traced(v):
        return np.asarray(v.numpy())
    if isinstance(v, Tensor):
        raise DataDependentStep(
            f"{what} is computed from tensor data at run time; only values known from the "
            "input shapes and constants are supported."
        )
    return np.asarray(v)


MAX_ATTR_ELEMENTS = 1 << 24  # sizes written in the file: a bound against damaged files


def _attr_size(shape, what: str) -> list[int]:
    """A shape or size written in the file's attributes, checked before anything that big is
    made (a damaged file must not make the loader allocate what the file does not carry)."""
    shape = [int(d) for d in shape]
    if any(d < 0 for d in shape) or math.prod(shape) > MAX_ATTR_ELEMENTS:
        raise ProgramError(
            f"(InvalidArgument) {what} {shape} from the program's attributes is negative or "
            f"larger than {MAX_ATTR_ELEMENTS} elements: the file is damaged."
        )
    return shape


def _ints(v, what: str) -> list[int]:
    return [int(x) for x in _c(v, what).reshape(-1)]


def _np_dtype(d) -> np.dtype:
    if isinstance(d, int):
        if d not in DTYPE_OF_VAR_TYPE:
            raise ProgramError(f"unsupported dtype number {d}")
        return DTYPE_OF_VAR_TYPE[d]
    return np.dtype(str(d))


def _all_const(*vs) -> bool:
    return not any(isinstance(v, Tensor) for v in vs)


def _shape_of(v) -> list[int]:
    return list(v.shape) if hasattr(v, "shape") else list(np.shape(v))


def _binary(name: str, np_fn):
    def fn(args, a):
        x, y = args[0], args[1]
        axis = a.get("axis", -1)
        xs, ys = _shape_of(x), _shape_of(y)
        if axis not in (-1, None) and len(ys) < len(xs):
            # legacy elementwise_*: y's dims line up with x's from ``axis`` on
            tgt = ys + [1] * (len(xs) - axis - len(ys))
            y = call_op("reshape", y, tgt) if isinstance(y, Tensor) else np.reshape(y, tgt)
        if _all_const(x, y):
            return np_fn(np.asarray(x), np.asarray(y))
        return call_op(name, _t(x), _t(y))

    return fn


def _unary(name: str, *attrs: tuple[str, object]):
    """A row calling op ``name`` on ``x`` and the given attributes, in order (with defaults)."""
    return lambda args, a: call_op(name, _t(args[0]), *(a.get(k, d) for k, d in attrs))


def _matmul(args, a):
    tx = a.get("transpose_x", a.get("trans_x", False))
    ty = a.get("transpose_y", a.get("trans_y", False))
    return call_op("matmul", _t(args[0]), _t(args[1]), transpose_x=tx, transpose_y=ty)


def _padding(a):
    algo = a.get("padding_algorithm", "EXPLICIT")
    if algo in ("SAME", "VALID"):
        return algo
    return [int(p) for p in a.get("paddings", [0, 0])]


def _conv2d(args, a):
    return call_op(
        "conv2d",
        _t(args[0]),
        _t(args[1]),
        None,
        stride=list(a.get("strides", [1, 1])),
        padding=_padding(a),
        dilation=list(a.get("dilations", [1, 1])),
        groups=int(a.get("groups", 1)),
        data_format=a.get("data_format", "NCHW"),
    )


def _pool2d(args, a):
    x = _t(args[0])
    ksize = _ints(args[1], "pool2d's kernel size") if len(args) > 1 else list(a["ksize"])
    fmt = a.get("data_format", "NCHW")
    kind = a.get("pooling_type", "max")
    if a.get("adaptive", False):
        if kind == "max":
            return call_op("adaptive_max_pool2d", x, ksize)
        return call_op("adaptive_avg_pool2d", x, ksize, data_format=fmt)
    padding = _padding(a)
    if a.get("global_pooling", False):
        ksize = list(x.shape[2:4] if fmt == "NCHW" else x.shape[1:3])
        padding = [0, 0]
    stride = list(a.get("strides", ksize))
    ceil = bool(a.get("ceil_mode", False))
    if kind == "max":
        return call_op("max_pool2d", x, ksize, stride, padding, ceil_mode=ceil, data_format=fmt)
    return call_op(
        "avg_pool2d",
        x,
        ksize,
        stride,
        padding,
        ceil_mode=ceil,
        exclusive=bool(a.get("exclusive", True)),
        data_format=fmt,
    )


def _max_pool2d_with_index(args, a):
    """``max_pool2d_with_index``: the max pool and each maximum's flat index in its plane."""
    x = _t(args[0])
    ksize = list(a["kernel_size"])
    if a.get("adaptive", False):
        return call_op("adaptive_max_pool2d", x, ksize, True)
    padding, stride = list(a.get("paddings", [0, 0])), list(a.get("strides", ksize))
    if a.get("global_pooling", False):
        ksize, padding = list(x.shape[2:4]), [0, 0]
    ceil = bool(a.get("ceil_mode", False))
    return call_op("max_pool2d", x, ksize, stride, padding, True, ceil)


def _unpool(args, a):
    """``unpool``: scatter each value to its index from ``max_pool2d_with_index``."""
    x, indices = _t(args[0]), _t(args[1])
    size = _ints(args[2], "unpool's output size") if len(args) > 2 else a.get("output_size")
    fmt = a.get("data_format", "NCHW")
    ks, st, pad = list(a["ksize"]), list(a["strides"]), list(a["padding"])
    return call_op("max_unpool2d", x, indices, ks, st, pad, fmt, list(size)[-2:])


def _prelu(args, a):
    """``prelu``: ``x`` where positive, else ``alpha * x``; ``mode`` all / channel (the
    functional form) or element (one alpha per element of a sample)."""
    x, alpha = _t(args[0]), _t(args[1])
    fmt = a.get("data_format", "NCHW")
    if a.get("mode", "all") != "element":
        return call_op("prelu", x, call_op("reshape", alpha, [-1]), fmt)
    alpha = call_op("reshape", alpha, [1, *x.shape[1:]])
    return call_op("where", call_op("greater_than", x, call_op("zeros_like", x)), x, x * alpha)


def _batch_norm(args, a):
    x, mean, var, scale, bias = args
    y = call_op(
        "batch_norm",
        _t(x),
        _t(mean),
        _t(var),
        _t(scale),
        _t(bias),
        training=False,
        epsilon=float(a.get("epsilon", 1e-5)),
        data_format=a.get("data_format", a.get("data_layout", "NCHW")),
    )
    return (y, mean, var, None, None, None)


def _batch_norm_legacy(args, a):
    x, scale, bias, mean, var = args
    return _batch_norm([x, mean, var, scale, bias], a)[:3]


def _layer_norm(args, a):
    x, scale, bias = (list(args) + [None, None])[:3]
    x = _t(x)
    axis = int(a.get("begin_norm_axis", 1))
    shape = list(x.shape[axis:])
    if scale is not None:
        scale = call_op("reshape", _t(scale), shape)
    if bias is not None:
        bias = call_op("reshape", _t(bias), shape)
    y = call_op("layer_norm", x, shape, scale, bias, epsilon=float(a.get("epsilon", 1e-5)))
    return (y, None, None)


def _reshape(args, a):
    x = args[0]
    shape = _ints(args[1], "reshape's shape") if len(args) > 1 else list(a["shape"])
    if not isinstance(x, Tensor):
        tgt = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]
        return np.reshape(x, tgt)
    return call_op("reshape", x, shape)


def _reshape_legacy(args, a):
    x, shape_t, shape_list = args
    if shape_t is not None:
        return _reshape([x, shape_t], a)
    if shape_list:
        return _reshape([x, [_ints(s, "reshape's shape")[0] for s in shape_list]], a)
    return _reshape([x], a)


def _transpose(args, a):
    perm = list(a.get("perm", a.get("axis")))
    if not isinstance(args[0], Tensor):
        return np.transpose(args[0], perm)
    return call_op("transpose", args[0], perm)


def _flatten(args, a):
    x = args[0]
    start, stop = int(a.get("start_axis", 1)), int(a.get("stop_axis", -1))
    if not isinstance(x, Tensor):
        return np.reshape(x, _flat_shape(x.shape, start, stop))
    return call_op("flatten", x, start, stop)


def _flat_shape(shape, start, stop):
    n = len(shape)
    start, stop = start % max(n, 1), stop % max(n, 1)
    return [*shape[:start], math.prod(shape[start : stop + 1]), *shape[stop + 1 :]]


def _softmax(args, a):
    return call_op("softmax", _t(args[0]), int(a.get("axis", -1)))


def _scale(args, a):
    x = args[0]
    s = (
        float(_c(args[1], "scale's factor").reshape(-1)[0])
        if len(args) > 1 and args[1] is not None
        else float(a.get("scale", 1.0))
    )
    b, after = float(a.get("bias", 0.0)), bool(a.get("bias_after_scale", True))
    if not isinstance(x, Tensor):
        x = np.asarray(x)
        return ((x * s + b) if after else ((x + b) * s)).astype(x.dtype)
    return call_op("scale", x, s, b, after)


def _dropout(args, a):
    """Inference dropout: identity (``upscale_in_train``) or ``x * (1 - p)``."""
    x = args[0]
    mode = a.get("mode", a.get("dropout_implementation", "upscale_in_train"))
    if mode == "upscale_in_train":
        return (x, None)
    if len(args) > 2 and args[2] is not None:
        p = float(_c(args[2], "dropout's p").reshape(-1)[0])
    else:
        p = float(a.get("dropout_prob", 0.5))
    return (call_op("scale", _t(x), 1.0 - p, 0.0, True), None)


def _reduce_args(args, a, what: str):
    """(axis or None for all, keepdim) of a reduction: PIR passes the axis as an input and
    ``keepdim``; 2.x ops have ``dim``/``reduce_all``/``keep_dim`` attributes."""
    if len(args) > 1:
        axis, keep = _ints(args[1], f"{what}'s axis"), bool(a.get("keepdim", False))
    else:
        axis = None if a.get("reduce_all", False) else list(a.get("dim", []))
        keep = bool(a.get("keep_dim", False))
    return axis or None, keep


def _mean(args, a):
    axis, keep = _reduce_args(args, a, "mean")
    return call_op("mean", _t(args[0]), axis, keep)


def _full(args, a):
    """``pd_op.full`` / legacy ``fill_constant``: a host constant."""
    shape = list(a.get("shape", []))
    if not (args and (args[0] is not None or (len(args) > 1 and args[1]))):
        shape = _attr_size(shape, "full's shape")
    if len(args) >= 1 and args[0] is not None:  # legacy ShapeTensor
        shape = _ints(args[0], "fill_constant's shape")
    if len(args) >= 2 and args[1]:  # legacy ShapeTensorList
        shape = [_ints(s, "fill_constant's shape")[0] for s in args[1]]
    value = a.get("value", 0.0)
    if a.get("str_value"):
        value = float(a["str_value"])
    if len(args) >= 3 and args[2] is not None:
        value = _c(args[2], "fill_constant's value").reshape(-1)[0]
    return np.full(shape, value, dtype=_np_dtype(a.get("dtype", "float32")))


def _full_int_array(args, a):
    return np.asarray(a.get("value", []), dtype=_np_dtype(a.get("dtype", "int64")))


def _full_with_tensor(args, a):
    value, shape = args
    shape = _ints(shape, "full_with_tensor's shape")
    dt = _np_dtype(a.get("dtype", "float32"))
    if isinstance(value, Tensor):
        return call_op("expand", call_op("reshape", value, [1] * len(shape)), shape)
    return np.full(shape, np.asarray(value).reshape(-1)[0], dtype=dt)


def _shape(dtype):
    def fn(args, a):
        return np.asarray(args[0].shape, dtype=dtype)

    return fn


def _slice(args, a):
    x = args[0]
    if len(args) >= 3 and _traced_index(args[1], a):
        return _slice_at(x, args[1], a)
    if len(args) >= 3 and args[1] is not None:
        starts, ends = _ints(args[1], "slice's starts"), _ints(args[2], "slice's ends")
    else:
        starts, ends = list(a["starts"]), list(a["ends"])
    axes = list(a.get("axes", []))
    dec = list(a.get("decrease_axis", []))
    if not isinstance(x, Tensor):
        x = np.asarray(x)
        idx = [slice(None)] * x.ndim
        for ax, s, e in zip(axes, starts, ends):
            idx[ax] = slice(s, e)
        out = x[tuple(idx)]
        return np.squeeze(out, axis=tuple(dec)) if dec else out
    out = call_op("slice", x, axes, starts, ends)
    return call_op("squeeze", out, dec) if dec else out


def _traced_index(starts, a) -> bool:
    """Starts computed from traced data (``x[:, t]`` in a compiled loop): supported where every
    sliced axis is dropped (one element each: the ends follow from the starts)."""
    if not is_traced(starts):
        return False
    if sorted(a.get("axes", [])) != sorted(a.get("decrease_axis", [])):
        raise DataDependentStep(
            "slice's starts are computed from tensor data inside a compiled program; only "
            "single-element slices that drop their axes (x[:, t]) are supported there."
        )
    return True


def _slice_at(x, starts: Tensor, a):
    """``x[..., t, ...]`` at traced indices (negative ones count from the end, as Paddle)."""
    x = _t(x)
    idx = [slice(None)] * len(x.shape)
    for k, ax in enumerate(a["axes"]):
        idx[ax % len(idx)] = call_op("reshape", call_op("slice", starts, [0], [k], [k + 1]), [])
    return x[tuple(idx)]


def _scalars(vals: list):
    """A ``*TensorList`` slot (one 1-element value per axis) as one 1-D value."""
    if _all_const(*vals):
        return np.concatenate([np.asarray(v).reshape(-1) for v in vals])
    return call_op("concat", [call_op("reshape", _t(v), [1]) for v in vals], 0)


def _slice_legacy(args, a):
    x, st, en = args[:3]
    if len(args) > 3 and args[3]:  # StartsTensorList / EndsTensorList: every axis's bound
        st = _scalars(args[3])
    if len(args) > 4 and args[4]:
        en = _scalars(args[4])
    if st is not None and _traced_index(st, a):
        return _slice_at(x, st, a)
    if st is not None or en is not None:
        a = dict(a)
        if st is not None:
            a["starts"] = _ints(st, "slice's starts")
        if en is not None:
            a["ends"] = _ints(en, "slice's ends")
    return _slice([x], a)


def _stack(args, a):
    xs, axis = args[0], int(a.get("axis", 0))
    if _all_const(*xs):
        return np.stack([np.asarray(x) for x in xs], axis)
    return call_op("stack", [_t(x) for x in xs], axis)


def _rnn(args, a):
    """Paddle's fused ``rnn`` op -> ``_nn_rnn``. WeightList holds every cell's W_ih, W_hh
    (layer by layer, direction by direction), then every cell's b_ih, b_hh."""
    x, pre_state, weights, seq_len = args[:4]
    mode = a.get("mode", "LSTM")
    d = 2 if a.get("is_bidirec", False) else 1
    n = int(a.get("num_layers", 1)) * d
    if len(weights) != 4 * n:
        raise ProgramError(f"rnn: {len(weights)} weights for {n} cells (expected {4 * n})")
    w = [_t(v) for v in weights]
    cells = [[w[2 * k], w[2 * k + 1], w[2 * n + 2 * k], w[2 * n + 2 * k + 1]] for k in range(n)]
    h0 = _t(pre_state[0])
    c0 = _t(pre_state[1]) if mode == "LSTM" else None
    lengths = _t(seq_len)
    out, h, c = call_op("_nn_rnn", _t(x), h0, c0, cells, lengths, mode, d, True, True)
    state = [h, c] if mode == "LSTM" else [h]
    return out, None, state, None


def _rnn_legacy(args, a):
    x, pre, weights, seq_len = args
    out, _, state, _ = _rnn([x, pre, weights, seq_len], a)
    return out, state


def _combine(args, a):
    return list(args)


def _split_vec(args, a):
    return tuple(args[0])


def _cast(args, a):
    dt = _np_dtype(a.get("dtype", a.get("out_dtype", "float32")))
    if not isinstance(args[0], Tensor):
        return np.asarray(args[0]).astype(dt)
    return call_op("cast", args[0], str(dt))


def _concat(args, a):
    xs = args[0]
    axis = (
        int(_c(args[1], "concat's axis").reshape(-1)[0]) if len(args) > 1 else int(a.get("axis", 0))
    )
    if _all_const(*xs):
        return np.concatenate([np.asarray(x) for x in xs], axis)
    return call_op("concat", [_t(x) for x in xs], axis)


def _gelu(args, a):
    return call_op("gelu", _t(args[0]), bool(a.get("approximate", False)))


def _conv2d_transpose(args, a):
    x, w = _t(args[0]), _t(args[1])
    out_size = None
    if len(args) > 2 and args[2] is not None:
        out_size = _ints(args[2], "conv2d_transpose's output size") or None
    elif a.get("output_size"):
        out_size = _attr_size(a["output_size"], "conv2d_transpose's output_size")
    return call_op(
        "conv2d_transpose",
        x,
        w,
        None,
        stride=list(a.get("strides", [1, 1])),
        padding=_padding(a),
        output_padding=list(a.get("output_padding") or [0]),
        dilation=list(a.get("dilations", [1, 1])),
        groups=int(a.get("groups", 1)),
        output_size=out_size,
        data_format=a.get("data_format", "NCHW"),
    )


def _interp(args, a):
    """``*_interp`` (v2): the output size from ``out_h``/``out_w`` (or the size inputs), else
    the ``scale`` factors."""
    x = _t(args[0])
    fmt = a.get("data_format", a.get("data_layout", "NCHW"))
    extra = [v for v in args[1:] if v is not None and not (isinstance(v, list) and not v)]
    size = scale = None
    if extra:
        vals = extra[0]
        size = [_ints(v, "interp's size")[0] for v in vals] if isinstance(vals, list) else None
        size = size or _ints(vals, "interp's size")
    elif a.get("out_h", -1) > 0:
        size = [int(a["out_h"]), int(a["out_w"])]
        if a.get("out_d", -1) > 0:
            size = [int(a["out_d"]), *size]
        size = _attr_size(size, "interpolation's output size")
    else:
        scale = [float(s) for s in a.get("scale") or []] or None
    mode = a.get("interp_method", "nearest")
    mode = {"bilinear": "bilinear", "nearest": "nearest", "bicubic": "bicubic"}.get(mode, mode)
    return call_op(
        "interpolate",
        x,
        size,
        scale,
        mode,
        bool(a.get("align_corners", False)),
        int(a.get("align_mode", 0)),
        fmt,
    )


def _clip(args, a):
    lo = args[1] if len(args) > 1 and args[1] is not None else a.get("min")
    hi = args[2] if len(args) > 2 and args[2] is not None else a.get("max")
    lo = float(_c(lo, "clip's min").reshape(-1)[0]) if lo is not None else None
    hi = float(_c(hi, "clip's max").reshape(-1)[0]) if hi is not None else None
    x = _t(args[0])
    if not x.is_floating_point():  # the kernel keeps x's dtype (paddle.clip's float bounds
        lo, hi = (None if v is None else int(v) for v in (lo, hi))  # would give float32)
    return call_op("clip", x, lo, hi)


def _squeeze(name: str):
    def fn(args, a):
        x = args[0]
        if len(args) > 1 and args[1] is not None and not isinstance(args[1], list):
            axes = _ints(args[1], f"{name}'s axes")
        else:
            axes = list(a.get("axes", []))
        if not isinstance(x, Tensor):
            x = np.asarray(x)
            if name == "squeeze":
                return np.squeeze(x, tuple(axes) if axes else None)
            for ax in sorted(ax % (x.ndim + len(axes)) for ax in axes):
                x = np.expand_dims(x, ax)
            return x
        if name == "squeeze" and not axes:
            return call_op("squeeze", x)
        return call_op(name, x, axes)

    return fn


def _embedding(args, a):
    ids, w = args
    pad = a.get("padding_idx", -1)
    pad = None if pad is None or pad == -1 else int(pad)
    return call_op("embedding", _t(ids), _t(w), pad)


def _log_softmax(args, a):
    return call_op("log_softmax", _t(args[0]), int(a.get("axis", -1)))


def _argmax(args, a):
    x = _t(args[0])
    axis = int(_c(args[1], "argmax's axis").reshape(-1)[0]) if len(args) > 1 else a.get("axis")
    if a.get("flatten", False):
        axis = None
    dt = _np_dtype(a.get("dtype", "int64"))
    return call_op("argmax", x, axis, bool(a.get("keepdims", False)), str(dt))


def _hardsigmoid(args, a):
    return call_op(
        "hardsigmoid",
        _t(args[0]),
        float(a.get("slope", 1 / 6)),
        float(a.get("offset", 0.5)),
    )


def _leaky_relu(args, a):
    slope = a.get("negative_slope", a.get("alpha", 0.01))
    return call_op("leaky_relu", _t(args[0]), float(slope))


def _sum(args, a):
    axis, keep = _reduce_args(args, a, "sum")
    return call_op("sum", _t(args[0]), axis, None, keep)


def _split(args, a):
    """``split_with_num`` / ``split`` (sections) / legacy ``split`` -> a list of parts."""
    x = _t(args[0])
    if len(args) == 3:  # pd_op.split: x, sections, axis
        sections, axis = _ints(args[1], "split's sections"), args[2]
    elif len(args) == 2:  # pd_op.split_with_num: x, axis
        sections, axis = int(a["num"]), args[1]
    else:
        sections = list(a.get("sections") or []) or int(a.get("num", 1))
        axis = a.get("axis", 0)
    axis = int(_c(axis, "split's axis").reshape(-1)[0])
    return list(call_op("split", x, sections, axis))


def _split_legacy(args, a):
    return (_split([args[0]], a),)


def _add_legacy(np_fn, name):
    return Row(_binary(name, np_fn), ("X", "Y"))


ROWS: dict[str, Row] = {
    # PIR (Paddle 3.x)
    "pd_op.add": Row(_binary("add", np.add)),
    "pd_op.subtract": Row(_binary("subtract", np.subtract)),
    "pd_op.multiply": Row(_binary("multiply", np.multiply)),
    "pd_op.divide": Row(_binary("divide", np.divide)),
    "pd_op.maximum": Row(_binary("maximum", np.maximum)),
    "pd_op.minimum": Row(_binary("minimum", np.minimum)),
    "pd_op.matmul": Row(_matmul),
    "pd_op.bmm": Row(lambda args, a: call_op("bmm", _t(args[0]), _t(args[1]))),
    "pd_op.prelu": Row(_prelu),
    "pd_op.max_pool2d_with_index": Row(_max_pool2d_with_index),
    "pd_op.unpool": Row(_unpool),
    "pd_op.conv2d": Row(_conv2d),
    "pd_op.depthwise_conv2d": Row(_conv2d),
    "pd_op.pool2d": Row(_pool2d),
    "pd_op.batch_norm_": Row(_batch_norm),
    "pd_op.batch_norm": Row(_batch_norm),
    "pd_op.layer_norm": Row(_layer_norm),
    "pd_op.relu": Row(_unary("relu")),
    "pd_op.relu6": Row(_unary("relu6")),
    "pd_op.sigmoid": Row(_unary("sigmoid")),
    "pd_op.tanh": Row(_unary("tanh")),
    "pd_op.exp": Row(_unary("exp")),
    "pd_op.sqrt": Row(_unary("sqrt")),
    "pd_op.rsqrt": Row(_unary("rsqrt")),
    "pd_op.swish": Row(_unary("swish")),
    "pd_op.silu": Row(_unary("silu")),
    "pd_op.hardswish": Row(_unary("hardswish")),
    "pd_op.gelu": Row(_gelu),
    "pd_op.softmax": Row(_softmax),
    "pd_op.reshape": Row(_reshape),
    "pd_op.transpose": Row(_transpose),
    "pd_op.flatten": Row(_flatten),
    "pd_op.scale": Row(_scale),
    "pd_op.dropout": Row(_dropout),
    "pd_op.mean": Row(_mean),
    "pd_op.full": Row(_full),
    "pd_op.full_int_array": Row(_full_int_array),
    "pd_op.full_with_tensor": Row(_full_with_tensor),
    "pd_op.shape64": Row(_shape(np.int64)),
    "pd_op.shape": Row(_shape(np.int32)),
    "pd_op.slice": Row(_slice),
    "pd_op.stack": Row(_stack),
    "pd_op.concat": Row(_concat),
    "pd_op.cast": Row(_cast),
    "pd_op.rnn": Row(_rnn),
    "pd_op.conv2d_transpose": Row(_conv2d_transpose),
    "pd_op.nearest_interp": Row(_interp),
    "pd_op.bilinear_interp": Row(_interp),
    "pd_op.clip": Row(_clip),
    "pd_op.squeeze": Row(_squeeze("squeeze")),
    "pd_op.unsqueeze": Row(_squeeze("unsqueeze")),
    "pd_op.embedding": Row(_embedding),
    "pd_op.log_softmax": Row(_log_softmax),
    "pd_op.argmax": Row(_argmax),
    "pd_op.hardsigmoid": Row(_hardsigmoid),
    "pd_op.abs": Row(_unary("abs")),
    "pd_op.log": Row(_unary("log")),
    "pd_op.leaky_relu": Row(_leaky_relu),
    "pd_op.sum": Row(_sum),
    "pd_op.greater_than": Row(_binary("greater_than", np.greater)),
    "pd_op.less_than": Row(_binary("less_than", np.less)),
    "pd_op.equal": Row(_binary("equal", np.equal)),
    "pd_op.split_with_num": Row(_split),
    "pd_op.split": Row(_split),
    "builtin.combine": Row(_combine),
    "builtin.split": Row(_split_vec),
    # ProgramDesc (Paddle 2.x protobuf)
    "elementwise_add": _add_legacy(np.add, "add"),
    "elementwise_sub": _add_legacy(np.subtract, "subtract"),
    "elementwise_mul": _add_legacy(np.multiply, "multiply"),
    "elementwise_div": _add_legacy(np.divide, "divide"),
    "matmul_v2": Row(_matmul, ("X", "Y")),
    "conv2d": Row(_conv2d, ("Input", "Filter"), ("Output",)),
    "depthwise_conv2d": Row(_conv2d, ("Input", "Filter"), ("Output",)),
    "pool2d": Row(_pool2d, ("X",)),
    "batch_norm": Row(
        _batch_norm_legacy,
        ("X", "Scale", "Bias", "Mean", "Variance"),
        ("Y", "MeanOut", "VarianceOut"),
    ),
    "layer_norm": Row(_layer_norm, ("X", "Scale", "Bias"), ("Y", "Mean", "Variance")),
    "relu": Row(_unary("relu"), ("X",)),
    "relu6": Row(_unary("relu6"), ("X",)),
    "sigmoid": Row(_unary("sigmoid"), ("X",)),
    "tanh": Row(_unary("tanh"), ("X",)),
    "exp": Row(_unary("exp"), ("X",)),
    "sqrt": Row(_unary("sqrt"), ("X",)),
    "hard_swish": Row(_unary("hardswish"), ("X",)),
    "swish": Row(_unary("swish"), ("X",)),
    "gelu": Row(_gelu, ("X",)),
    "softmax": Row(_softmax, ("X",)),
    "reshape2": Row(_reshape_legacy, ("X", "Shape", "ShapeTensor*")),
    "transpose2": Row(_transpose, ("X",)),
    "flatten_contiguous_range": Row(_flatten, ("X",)),
    "scale": Row(_scale, ("X",)),
    "dropout": Row(_dropout, ("X",), ("Out", "Mask")),
    "reduce_mean": Row(_mean, ("X",)),
    "fill_constant": Row(_full, ("ShapeTensor", "ShapeTensorList*", "ValueTensor")),
    "shape": Row(_shape(np.int32), ("Input",)),
    "slice": Row(
        _slice_legacy,
        ("Input", "StartsTensor", "EndsTensor", "StartsTensorList*", "EndsTensorList*"),
    ),
    "stack": Row(_stack, ("X*",), ("Y",)),
    "concat": Row(lambda args, a: _concat([args[0]], a), ("X*",)),
    "cast": Row(_cast, ("X",)),
    "elementwise_max": _add_legacy(np.maximum, "maximum"),
    "elementwise_min": _add_legacy(np.minimum, "minimum"),
    "greater_than": _add_legacy(np.greater, "greater_than"),
    "less_than": _add_legacy(np.less, "less_than"),
    "equal": _add_legacy(np.equal, "equal"),
    "abs": Row(_unary("abs"), ("X",)),
    "log": Row(_unary("log"), ("X",)),
    "rsqrt": Row(_unary("rsqrt"), ("X",)),
    "silu": Row(_unary("silu"), ("X",)),
    "leaky_relu": Row(_leaky_relu, ("X",)),
    "reduce_sum": Row(_sum, ("X",)),
    "split": Row(_split_legacy, ("X",)),
    "conv2d_transpose": Row(_conv2d_transpose, ("Input", "Filter"), ("Output",)),
    "nearest_interp_v2": Row(_interp, ("X", "OutSize", "SizeTensor*", "Scale")),
    "bilinear_interp_v2": Row(_interp, ("X", "OutSize", "SizeTensor*", "Scale")),
    "clip": Row(_clip, ("X", "Min", "Max")),
    "squeeze2": Row(_squeeze("squeeze"), ("X",)),
    "unsqueeze2": Row(_squeeze("unsqueeze"), ("X", "AxesTensor")),
    "lookup_table_v2": Row(_embedding, ("Ids", "W")),
    "log_softmax": Row(_log_softmax, ("X",)),
    "arg_max": Row(_argmax, ("X",)),
    "hard_sigmoid": Row(_hardsigmoid, ("X",)),
    "rnn": Row(
        _rnn_legacy, ("Input", "PreState*", "WeightList*", "SequenceLength"), ("Out", "State")
    ),
}
