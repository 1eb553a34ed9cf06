"""Program rows for elementwise math, scans, reductions, normalizations and sampling that
exports of transformer detectors (DETR's sine position embedding: ``cumsum``, ``sin``, ``cos``,
``elementwise_pow``, ``floor``), segmentation and generative models use, merged into
``layer.ROWS``. Attribute and input layouts as Paddle 3.3.1 writes them in PIR programs
(checked on the ``math`` fixture): reduction axes are attributes except ``prod``'s and
``cumsum``'s, which are inputs; ``pad3d``'s paddings, ``one_hot``'s class count and
``linspace``'s start, stop and count are inputs.
"""

from __future__ import annotations

import numpy as np

from ..._core.registry import call_op
from . import op_table as _ot
from .index_ops import _int_list
from .program import ProgramError

Row = _ot.Row
_t, _ints, _unary = _ot._t, _ot._ints, _ot._unary


def _axes(a, key: str = "axis") -> list[int] | None:
    v = a.get(key)
    if v is None:
        return None
    return [int(d) for d in (v if isinstance(v, (list, tuple)) else [v])] or None


def _scan(name: str, axis_key: str | None):
    """``cumsum`` (axis an input) / ``cumprod`` (``dim`` an attribute), with Paddle's
    ``flatten``, ``exclusive`` (each position gets the scan of the ones before it) and
    ``reverse`` (scanned from the end)."""

    def fn(args, a):
        x = _t(args[0])
        if a.get("flatten", False):
            x, axis = call_op("reshape", x, [-1]), 0
        elif axis_key is None:
            axis = _ints(args[1], f"{name}'s axis")[0]
        else:
            axis = int(a[axis_key])
        axis %= max(x.ndim, 1)
        rev = bool(a.get("reverse", False))
        if rev:
            x = call_op("flip", x, [axis])
        y = call_op(name, x, axis)
        if a.get("exclusive", False) and x.shape[axis] > 0:
            n = x.shape[axis]
            first = call_op("slice", x, [axis], [0], [1])
            start = call_op("full_like", first, 0 if name == "cumsum" else 1)
            y = call_op("concat", [start, call_op("slice", y, [axis], [0], [n - 1])], axis)
        return call_op("flip", y, [axis]) if rev else y

    return fn


def _reduce(name: str):
    """``any``/``all``/``logsumexp`` (axes an attribute) and ``prod`` (axes an input)."""

    def fn(args, a):
        if len(args) > 1:
            axis = _ints(args[1], f"{name}'s axis") or None
        else:
            axis = _axes(a)
        if a.get("reduce_all", False):
            axis = None
        return call_op(name, _t(args[0]), axis, bool(a.get("keepdim", False)))

    return fn


def _pow(args, a):
    """``pow``: ``x`` to a constant power ``y``."""
    return call_op("pow", _t(args[0]), float(a.get("y", 1.0)))


def _mish(args, a):
    if float(a.get("lambda", 20.0)) != 20.0:
        raise ProgramError(f"mish with threshold {a['lambda']} is not supported (only 20.0).")
    return call_op("mish", _t(args[0]))


def _p_norm(args, a):
    """``p_norm``: the ``porder``-norm along ``axis`` (over all entries with ``asvector``)."""
    axis = None if a.get("asvector", False) else int(a.get("axis", -1))
    p = float(a.get("porder", 2.0))
    return call_op("norm", _t(args[0]), p, axis, bool(a.get("keepdim", False)))


def _median(args, a):
    """``median`` -> (the median, its index; the index output is not produced)."""
    out = call_op(
        "median", _t(args[0]), _axes(a), bool(a.get("keepdim", False)), a.get("mode", "avg")
    )
    return out, None


def _kthvalue(args, a):
    k, axis, keep = int(a["k"]), int(a.get("axis", -1)), bool(a.get("keepdim", False))
    return tuple(call_op("kthvalue", _t(args[0]), k, axis, keep))


def _group_norm(args, a):
    """``group_norm(x, scale, bias)`` -> (y, mean, variance; only y is produced)."""
    x, scale, bias = (list(args) + [None, None])[:3]
    y = call_op(
        "group_norm", _t(x), int(a["groups"]), float(a.get("epsilon", 1e-5)), _t(scale),
        _t(bias), a.get("data_format", "NCHW"),
    )  # fmt: skip
    return y, None, None


def _instance_norm(args, a):
    """``instance_norm(x, scale, bias)`` -> (y, saved mean, saved variance; only y)."""
    x, scale, bias = (list(args) + [None, None])[:3]
    y = call_op(
        "instance_norm", _t(x), None, None, _t(scale), _t(bias), True, 0.9,
        float(a.get("epsilon", 1e-5)),
    )  # fmt: skip
    return y, None, None


def _grid_sample(args, a):
    return call_op(
        "grid_sample", _t(args[0]), _t(args[1]), a.get("mode", "bilinear"),
        a.get("padding_mode", "zeros"), bool(a.get("align_corners", True)),
    )  # fmt: skip


def _affine_grid(args, a):
    """``affine_grid(theta, output_shape)``: the sampling grid of an affine map."""
    shape = _int_list(args[1], "affine_grid's output_shape")
    return call_op("affine_grid", _t(args[0]), shape, bool(a.get("align_corners", True)))


def _pad3d(args, a):
    """``pad3d(x, paddings)``: F.pad of a 5-D tensor (4-D inputs arrive unsqueezed)."""
    pads = _int_list(args[1], "pad3d's paddings")
    return call_op(
        "pad", _t(args[0]), pads, a.get("mode", "constant"), float(a.get("pad_value", 0.0)),
        a.get("data_format", "NCDHW"),
    )  # fmt: skip


def _einsum(args, a):
    """``einsum(operands)`` -> (out, inner cache, x shapes; only out)."""
    return call_op("einsum", a["equation"], *(_t(x) for x in args[0])), None, None


def _linspace(args, a):
    """``linspace(start, stop, num)``: ``num`` evenly spaced values (inputs the host knows)."""
    start = float(_ot._c(args[0], "linspace's start").reshape(-1)[0])
    stop = float(_ot._c(args[1], "linspace's stop").reshape(-1)[0])
    num = _ints(args[2], "linspace's num")[0]
    return call_op("linspace", start, stop, num, str(_ot._np_dtype(a.get("dtype", "float32"))))


def _one_hot(args, a):
    num = _ints(args[1], "one_hot's num_classes")[0] if len(args) > 1 else int(a["depth"])
    return call_op("one_hot", _t(args[0]), num)


def _full_batch_size_like(args, a):
    """``full_batch_size_like(input)``: a constant whose ``output_dim_idx`` dim is the
    input's ``input_dim_idx`` dim."""
    shape = [int(d) for d in a["shape"]]
    shape[int(a.get("output_dim_idx", 0))] = _ot._shape_of(args[0])[int(a.get("input_dim_idx", 0))]
    return np.full(shape, a.get("value", 0.0), _ot._np_dtype(a.get("dtype", "float32")))


_UNARY = (
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "floor", "ceil", "sign",
    "reciprocal", "square", "erf", "log1p", "expm1", "log2", "log10", "trunc", "isnan", "isinf",
    "softsign", "logical_not",
)  # fmt: skip
_BINARY = {
    "elementwise_pow": ("pow", np.power), "remainder": ("remainder", np.remainder),
    "atan2": ("atan2", np.arctan2), "fmax": ("fmax", np.fmax), "fmin": ("fmin", np.fmin),
    "heaviside": ("heaviside", np.heaviside), "bitwise_and": ("bitwise_and", np.bitwise_and),
    "bitwise_or": ("bitwise_or", np.bitwise_or), "bitwise_xor": ("bitwise_xor", np.bitwise_xor),
}  # fmt: skip

ROWS = {
    **{f"pd_op.{n}": Row(_unary(n)) for n in _UNARY},
    **{f"pd_op.{n}": Row(_ot._binary(op, f)) for n, (op, f) in _BINARY.items()},
    "pd_op.tanh_shrink": Row(_unary("tanhshrink")),
    "pd_op.round": Row(_unary("round", ("decimals", 0))),
    "pd_op.softplus": Row(_unary("softplus", ("beta", 1.0), ("threshold", 20.0))),
    "pd_op.elu": Row(_unary("elu", ("alpha", 1.0))),
    "pd_op.celu": Row(_unary("celu", ("alpha", 1.0))),
    "pd_op.selu": Row(_unary("selu", ("scale", 1.0507009873554805), ("alpha", 1.6732632423543772))),
    "pd_op.thresholded_relu": Row(_unary("thresholded_relu", ("threshold", 1.0), ("value", 0.0))),
    "pd_op.hardtanh": Row(_unary("hardtanh", ("t_min", -1.0), ("t_max", 1.0))),
    "pd_op.mish": Row(_mish),
    "pd_op.pow": Row(_pow),
    "pd_op.lerp": Row(lambda args, a: call_op("lerp", *(_t(v) for v in args[:3]))),
    "pd_op.cumsum": Row(_scan("cumsum", None)),
    "pd_op.cumprod": Row(_scan("cumprod", "dim")),
    "pd_op.flip": Row(lambda args, a: call_op("flip", _t(args[0]), _axes(a))),
    "pd_op.tril": Row(_unary("tril", ("diagonal", 0))),
    "pd_op.triu": Row(_unary("triu", ("diagonal", 0))),
    "pd_op.pixel_shuffle": Row(
        _unary("pixel_shuffle", ("upscale_factor", 1), ("data_format", "NCHW"))
    ),
    "pd_op.pixel_unshuffle": Row(
        _unary("pixel_unshuffle", ("downscale_factor", 1), ("data_format", "NCHW"))
    ),
    "pd_op.channel_shuffle": Row(_unary("channel_shuffle", ("groups", 1), ("data_format", "NCHW"))),
    "pd_op.logsumexp": Row(_reduce("logsumexp")),
    "pd_op.prod": Row(_reduce("prod")),
    "pd_op.any": Row(_reduce("any")),
    "pd_op.all": Row(_reduce("all")),
    "pd_op.p_norm": Row(_p_norm),
    "pd_op.median": Row(_median),
    "pd_op.kthvalue": Row(_kthvalue),
    "pd_op.svd": Row(
        lambda args, a: tuple(call_op("svd", _t(args[0]), bool(a.get("full_matrices", False))))
    ),
    "pd_op.group_norm": Row(_group_norm),
    "pd_op.instance_norm": Row(_instance_norm),
    "pd_op.grid_sample": Row(_grid_sample),
    "pd_op.affine_grid": Row(_affine_grid),
    "pd_op.pad3d": Row(_pad3d),
    "pd_op.einsum": Row(_einsum),
    "pd_op.linspace": Row(_linspace),
    "pd_op.one_hot": Row(_one_hot),
    "pd_op.full_batch_size_like": Row(_full_batch_size_like),
    # the element count (int64, 0-D): the shape is known when the program runs or is traced
    "pd_op.numel": Row(lambda args, a: np.asarray(np.prod(_ot._shape_of(args[0])), np.int64)),
}
