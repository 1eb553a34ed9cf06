"""``paddle.static.nn`` layers as functions: each creates its parameters (named as Paddle's
LayerHelper names them, ``fc_0.w_0``) and calls the same ops as the ``paddle.nn`` Layers;
in static mode those calls record into the current Program."""

from __future__ import annotations

import copy
import math

from ...framework._param_attr import ParamAttr, create_parameter
from ...nn import functional as F
from ...nn import initializer as I


def _prefix(name, kind: str) -> str:
    from ...base import unique_name

    return name if name is not None else unique_name.generate(kind)


def _param(prefix, suffix, attr, shape, dtype, is_bias=False, default=None, trainable=True):
    from ...base import unique_name

    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    attr = copy.copy(attr)
    if attr.name is None:
        attr.name = unique_name.generate(f"{prefix}.{suffix}")
    if not trainable:
        attr.trainable = False
    p = create_parameter(shape, dtype, attr=attr, is_bias=is_bias, default_initializer=default)
    from .._program import default_main_program

    init = attr.initializer or default or (I.Constant(0.0) if is_bias else I.XavierUniform())
    default_main_program()._note_param(p, _init_desc(init, shape), init)
    return p


def _init_desc(init, shape):
    """("uniform", low, high) or ("full", value) for the initializers the startup program
    prints as Paddle does; None for the others."""
    if isinstance(init, I.XavierUniform) or type(init).__name__ == "XavierInitializer":
        if not init._uniform:
            return None
        fi, fo = init._fans(shape)
        limit = init._gain * math.sqrt(6.0 / float(fi + fo))
        return ("uniform", -limit, limit)
    if isinstance(init, I.Uniform):
        return ("uniform", init._low, init._high)
    if isinstance(init, I.Constant):
        return ("full", init._value)
    return None


def _pair(v) -> list:
    return [v] * 2 if isinstance(v, int) else list(v)


def _act(y, activation):
    return y if activation is None else getattr(F, activation)(y)


def fc(
    x,
    size: int,
    num_flatten_dims: int = 1,
    weight_attr=None,
    bias_attr=None,
    activation=None,
    name=None,
):
    """Fully connected: flatten each input's dims from ``num_flatten_dims`` on, multiply by
    a weight [in, size] (one per input, summed), add a bias, apply ``activation``."""
    xs = list(x) if isinstance(x, list | tuple) else [x]
    prefix = _prefix(name, "fc")
    ws = weight_attr if isinstance(weight_attr, list | tuple) else [weight_attr] * len(xs)
    out = None
    for xi, wa in zip(xs, ws):
        shape = list(xi.shape)
        k = num_flatten_dims if num_flatten_dims >= 0 else len(shape) + num_flatten_dims
        in_features = math.prod(shape[k:])
        w = _param(prefix, "w", wa, [in_features, size], xi.dtype)
        if len(shape) != k + 1:
            xi = xi.reshape([0] * k + [in_features])
        y = xi.matmul(w)
        out = y if out is None else out + y
    b = _param(prefix, "b", bias_attr, [size], xs[0].dtype, is_bias=True)
    if b is not None:
        out = out + b
    return _act(out, activation)


def conv2d(
    input,
    num_filters: int,
    filter_size,
    stride=1,
    padding=0,
    dilation=1,
    groups=None,
    param_attr=None,
    bias_attr=None,
    use_cudnn: bool = True,
    act=None,
    name=None,
    data_format: str = "NCHW",
):
    """2-D convolution with a weight [num_filters, C / groups, kh, kw] (Normal(0, sqrt(2 /
    fan_in)) by default) and a bias; then ``act``."""
    groups = groups or 1
    c = input.shape[1 if data_format == "NCHW" else -1]
    ks = [filter_size] * 2 if isinstance(filter_size, int) else list(filter_size)
    prefix = _prefix(name, "conv2d")
    fan_in = ks[0] * ks[1] * c
    w = _param(
        prefix, "w", param_attr, [num_filters, c // groups, *ks], input.dtype,
        default=I.Normal(0.0, (2.0 / fan_in) ** 0.5),
    )  # fmt: skip
    b = _param(prefix, "b", bias_attr, [num_filters], input.dtype, is_bias=True)
    y = F.conv2d(input, w, b, stride, padding, dilation, groups, data_format)
    return _act(y, act)


def batch_norm(
    input,
    act=None,
    is_test: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-05,
    param_attr=None,
    bias_attr=None,
    data_layout: str = "NCHW",
    in_place: bool = False,
    name=None,
    moving_mean_name=None,
    moving_variance_name=None,
    do_model_average_for_mean_and_var: bool = True,
    use_global_stats: bool = False,
):
    """Batch normalization with scale (ones), bias (zeros) and moving mean / variance
    (non-trainable parameters updated each training run); then ``act``."""
    c = input.shape[1 if data_layout in ("NCHW", "NCL", "NC") else -1]
    prefix = _prefix(name, "batch_norm")
    dt = input.dtype
    w = _param(prefix, "w", param_attr, [c], dt, default=I.Constant(1.0))
    b = _param(prefix, "b", bias_attr, [c], dt, is_bias=True)
    mean = _param(
        prefix, "w", ParamAttr(name=moving_mean_name, initializer=I.Constant(0.0)), [c], dt,
        trainable=False,
    )  # fmt: skip
    var = _param(
        prefix, "w", ParamAttr(name=moving_variance_name, initializer=I.Constant(1.0)), [c],
        dt, trainable=False,
    )  # fmt: skip
    y = F.batch_norm(
        input, mean, var, w, b, training=not is_test, momentum=momentum, epsilon=epsilon,
        data_format=data_layout, use_global_stats=use_global_stats or None,
    )  # fmt: skip
    return _act(y, act)


def embedding(
    input, size, is_sparse: bool = False, is_distributed: bool = False, padding_idx=None,
    param_attr=None, dtype="float32",
):  # fmt: skip
    """Look up rows of a [size[0], size[1]] table (XavierUniform by default) at ``input``."""
    w = _param(_prefix(None, "embedding"), "w", param_attr, list(size), dtype)
    if padding_idx is not None and padding_idx < 0:
        padding_idx += size[0]
    return F.embedding(input, w, padding_idx=padding_idx, sparse=is_sparse)


def layer_norm(
    input, scale: bool = True, shift: bool = True, begin_norm_axis: int = 1,
    epsilon: float = 1e-05, param_attr=None, bias_attr=None, act=None, name=None,
):  # fmt: skip
    """Normalize over the dims from ``begin_norm_axis`` on, with scale and shift."""
    shape = list(input.shape)[begin_norm_axis:]
    n = math.prod(shape)
    prefix = _prefix(name, "layer_norm")
    w = (
        _param(prefix, "w", param_attr, [n], input.dtype, default=I.Constant(1.0))
        if scale
        else None
    )
    b = _param(prefix, "b", bias_attr, [n], input.dtype, is_bias=True) if shift else None
    y = F.layer_norm(input, shape, w, b, epsilon)
    return _act(y, act)


def conv2d_transpose(
    input,
    num_filters: int,
    output_size=None,
    filter_size=None,
    padding=0,
    stride=1,
    dilation=1,
    groups=None,
    param_attr=None,
    bias_attr=None,
    use_cudnn: bool = True,
    act=None,
    name=None,
    data_format: str = "NCHW",
):
    """2-D transposed convolution with a weight [C, num_filters / groups, kh, kw]
    (XavierUniform by default; ``filter_size`` derived from ``output_size`` when absent) and a
    bias; then ``act``."""
    groups = groups or 1
    nchw = data_format == "NCHW"
    c = input.shape[1 if nchw else -1]
    st, dl = _pair(stride), _pair(dilation)
    if filter_size is None:  # the size that gives output_size: out = (in-1)*s - 2p + d(k-1) + 1
        if output_size is None:
            raise ValueError("output_size must be set when filter_size is None.")
        pad = [0, 0] if isinstance(padding, str) else _pair(padding)[:2]
        hw = list(input.shape[2:4] if nchw else input.shape[1:3])
        filter_size = [
            (o + 2 * p - (i - 1) * s - 1) // d + 1
            for o, p, i, s, d in zip(_pair(output_size), pad, hw, st, dl)
        ]
    ks = _pair(filter_size)
    prefix = _prefix(name, "conv2d_transpose")
    w = _param(prefix, "w", param_attr, [c, num_filters // groups, *ks], input.dtype)
    b = _param(prefix, "b", bias_attr, [num_filters], input.dtype, is_bias=True)
    size = None if output_size is None else _pair(output_size)
    y = F.conv2d_transpose(
        input, w, b, stride=st, padding=padding, groups=groups, dilation=dl, output_size=size,
        data_format=data_format,
    )  # fmt: skip
    return _act(y, act)


def group_norm(
    input, groups: int, epsilon: float = 1e-05, param_attr=None, bias_attr=None, act=None,
    data_layout: str = "NCHW", name=None,
):  # fmt: skip
    """Group normalization over ``groups`` channel groups, with scale (ones) and bias."""
    c = input.shape[1 if data_layout == "NCHW" else -1]
    prefix = _prefix(name, "group_norm")
    w = _param(prefix, "w", param_attr, [c], input.dtype, default=I.Constant(1.0))
    b = _param(prefix, "b", bias_attr, [c], input.dtype, is_bias=True)
    y = F.group_norm(input, groups, epsilon, w, b, data_layout)
    return _act(y, act)


def instance_norm(input, epsilon: float = 1e-05, param_attr=None, bias_attr=None, name=None):
    """Instance normalization (per sample and channel), with scale (ones) and bias."""
    c = input.shape[1]
    prefix = _prefix(name, "instance_norm")
    w = _param(prefix, "w", param_attr, [c], input.dtype, default=I.Constant(1.0))
    b = _param(prefix, "b", bias_attr, [c], input.dtype, is_bias=True)
    return F.instance_norm(input, None, None, w, b, eps=epsilon)


def prelu(x, mode: str, param_attr=None, data_format: str = "NCHW", name=None):
    """``x`` where positive, else ``alpha * x`` (alpha 0.25 by default): one alpha (``all``),
    one per channel (``channel``, shape [1, C, 1, 1]) or per element of a sample
    (``element``, shape [1, *x.shape[1:]])."""
    if mode not in ("all", "channel", "element"):
        raise ValueError("mode should be one of all, channel, element.")
    shape = list(x.shape)
    if mode == "all":
        alpha_shape = [1]
    elif mode == "channel":
        c = shape[1] if data_format in ("NCHW", "NCW", "NCDHW") else shape[-1]
        alpha_shape = [1, c] + [1] * (len(shape) - 2)
        if data_format not in ("NCHW", "NCW", "NCDHW"):
            alpha_shape = [1] * (len(shape) - 1) + [c]
    else:
        alpha_shape = [1, *shape[1:]]
    alpha = _param(_prefix(name, "prelu"), "w", param_attr, alpha_shape, x.dtype,
                   default=I.Constant(0.25))  # fmt: skip
    if mode == "element":
        return _positive_or_scaled(x, alpha)
    return F.prelu(x, alpha.reshape([-1]), data_format)


def _positive_or_scaled(x, alpha):
    """``x > 0 ? x : alpha * x`` with ``alpha`` broadcast over the batch."""
    from ... import where

    return where(x > 0, x, x * alpha)
