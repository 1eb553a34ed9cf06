"""paddle.nn.functional convolutions: conv1d/2d/3d and their transposes, on
``jax.lax.conv_general_dilated`` (a transposed conv is a conv over the stride-dilated input
with the flipped, regrouped kernel); on CPU, narrow convolutions take ``_conv_cpu``'s
lowerings."""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp

from ..._core.registry import op
from . import _conv_cpu

_F = dict(namespaces=("paddle.nn.functional",), method=None)
_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}
_SPATIAL = "DHW"


def ntuple(v, n: int, name: str) -> tuple[int, ...]:
    """int or sequence of n ints -> tuple of n ints."""
    if isinstance(v, int):
        return (v,) * n
    v = tuple(int(i) for i in v)
    if len(v) == 1:
        return v * n
    if len(v) != n:
        raise ValueError(f"The {name}'s length must be {n}. Received: {list(v)}")
    return v


def check_conv_geometry(stride, dilation, pads) -> None:
    """Paddle's conv checks: strides and dilations > 0, explicit paddings >= 0."""
    if any(v <= 0 for v in stride):
        raise ValueError(
            "(InvalidArgument) The stride of Op(Conv) should be larger than 0, but received "
            f"stride is {min(stride)}."
        )
    if any(v <= 0 for v in dilation):
        raise ValueError(
            "(InvalidArgument) The dilation of Op(Conv) should be larger than 0, but received "
            f"dilation is {min(dilation)}."
        )
    if not isinstance(pads, str) and any(v < 0 for pair in pads for v in pair):
        raise ValueError(
            "Invalid padding, all value should be larger than or equal to 0, but received: "
            f"{[v for pair in pads for v in pair]}"
        )


def check_operands(x, weight, bias, name: str, nsp: int) -> None:
    """Paddle's conv kernels: float inputs only, x and weight of one dtype and rank, a bias of
    one value per output channel."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise RuntimeError(
            f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {x.dtype}) of kernel "
            f"`{name}` is not registered. Selected wrong DataType `{x.dtype}`. Paddle support "
            "following DataTypes: float64, float32 (and float16/bfloat16 on GPU)."
        )
    if weight.ndim != nsp + 2:
        raise ValueError(
            f"(InvalidArgument) The input's dimension and filter's dimension of Op({name}) "
            f"should be equal. But received: the input's shape is {list(x.shape)}, the filter's "
            f"shape is {list(weight.shape)}."
        )
    if weight.dtype != x.dtype:
        raise ValueError(
            f"(InvalidArgument) The type of data we are trying to retrieve ({x.dtype}) does not "
            f"match the type of data ({weight.dtype}) currently contained in the container: x "
            f"and weight of {name} should have one dtype."
        )
    if bias is not None and tuple(bias.shape) != (weight.shape[0],) and bias.size != 1:
        raise ValueError(
            f"(InvalidArgument) The bias of {name} should have shape [{weight.shape[0]}] (one "
            f"value per output channel), but received {list(bias.shape)}."
        )


def channel_last(data_format: str, nsp: int) -> bool:
    fmts = _FORMATS[nsp]
    if data_format not in fmts:
        raise ValueError(
            f"Attr(data_format) should be '{fmts[0]}' or '{fmts[1]}'. Received "
            f"Attr(data_format): {data_format}."
        )
    return data_format == fmts[1]


def parse_padding(padding, nsp: int, cl: bool):
    """Paddle's conv/pool padding forms -> "SAME", "VALID" or ((lo, hi), ...) per spatial axis:
    int, [p] * nsp, [lo0, hi0, lo1, hi1, ...], or pairs for every axis incl. batch/channel."""
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"Unknown padding: '{p}'. It can only be 'SAME' or 'VALID'.")
        return p
    if isinstance(padding, int):
        return ((padding, padding),) * nsp
    padding = list(padding)
    if padding and isinstance(padding[0], list | tuple):
        pairs = [tuple(int(v) for v in p) for p in padding]
        if len(pairs) != nsp + 2:  # Paddle takes pairs for every axis only
            raise ValueError(f"In valid padding: {padding} (pairs for all {nsp + 2} axes)")
        nonsp = (pairs[0], pairs[-1]) if cl else (pairs[0], pairs[1])
        if any(p != (0, 0) for p in nonsp):
            raise ValueError(
                f"Non-zero padding({padding}) in the batch or channel dimensions is not supported."
            )
        return tuple(pairs[1:-1] if cl else pairs[2:])
    padding = [int(v) for v in padding]
    if len(padding) == nsp:
        return tuple((p, p) for p in padding)
    if len(padding) == 2 * nsp:
        return tuple((padding[2 * i], padding[2 * i + 1]) for i in range(nsp))
    raise ValueError(f"In valid padding: {padding} (for a {nsp}-D spatial input)")


def same_pads(in_sizes, kernel, stride):
    """TF-style SAME: output ceil(in / stride), the extra pad goes after."""
    pads = []
    for n, k, s in zip(in_sizes, kernel, stride):
        out = -(-n // s)
        total = max((out - 1) * s + k - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def _check_output_size(spatial, kernel, stride, pads, dilation) -> None:
    """A kernel larger than the padded input: Paddle returns a tensor with a negative dimension
    (conv2d) or fails with an internal RuntimeError (conv1d/conv3d); this is a ValueError."""
    for axis, (n, k, s, (lo, hi), d) in enumerate(zip(spatial, kernel, stride, pads, dilation)):
        if not isinstance(n, int):  # a symbolic size (jit.save with a dynamic dimension)
            continue
        out = (n + lo + hi - d * (k - 1) - 1) // s + 1
        if n > 0 and out <= 0:
            raise ValueError(
                f"the (dilated) kernel size {d * (k - 1) + 1} along spatial axis {axis} "
                f"is larger than the padded input size {n + lo + hi} (input size {n}, padding "
                f"({lo}, {hi})): the output size would be {out}"
            )


def _dims(nsp: int, cl: bool):
    sp = _SPATIAL[3 - nsp :]
    lhs = ("N" + sp + "C") if cl else ("NC" + sp)
    return jax.lax.conv_dimension_numbers((1,) * (nsp + 2), (1,) * (nsp + 2), (lhs, "OI" + sp, lhs))


def _add_bias(y, bias, cl, nsp):
    if bias is None:
        return y
    shape = [1] * (nsp + 2)
    shape[-1 if cl else 1] = bias.shape[0]
    return y + bias.reshape(shape).astype(y.dtype)


def _conv(x, weight, bias, stride, padding, dilation, groups, data_format, nsp, name):
    cl = channel_last(data_format, nsp)
    if x.ndim != nsp + 2:
        raise ValueError(
            f"Input x of {name} should be a {nsp + 2}-D Tensor ({nsp + 2}D), but received x "
            f"with the shape of {list(x.shape)}"
        )
    check_operands(x, weight, bias, name, nsp)
    c_in = x.shape[-1] if cl else x.shape[1]
    if groups is None or groups < 1:
        raise ValueError(f"the groups of {name} should be greater than 0, got {groups}")
    if c_in % groups:
        raise ValueError(
            f"The channel of input must be divisible by groups, received: the channel of input "
            f"is {c_in}, the shape of input is {list(x.shape)}, the groups is {groups}"
        )
    if c_in != weight.shape[1] * groups:
        raise ValueError(
            f"(InvalidArgument) The number of input's channels should be equal to filter's "
            f"channels * groups for Op(Conv). But received: the input's channels is {c_in}, "
            f"the input's shape is {list(x.shape)}; the filter's channels is {weight.shape[1]}, "
            f"the filter's shape is {list(weight.shape)}; the groups is {groups}, the data_format "
            f"is {data_format}."
        )
    if weight.shape[0] % groups:
        raise ValueError(
            f"The number of output channels ({weight.shape[0]}) must be divisible "
            f"by groups ({groups}), but received the filter's shape {list(weight.shape)}"
        )
    stride = ntuple(stride, nsp, "stride")
    dilation = ntuple(dilation, nsp, "dilation")
    pads = parse_padding(padding, nsp, cl)
    check_conv_geometry(stride, dilation, pads)
    spatial = x.shape[1:-1] if cl else x.shape[2:]
    if pads == "SAME":
        pads, dilation = same_pads(spatial, weight.shape[2:], stride), (1,) * nsp
    elif pads == "VALID":
        pads = ((0, 0),) * nsp
    _check_output_size(spatial, weight.shape[2:], stride, pads, dilation)
    if jax.default_backend() == "cpu":
        y = _conv_cpu.lower(x, weight.astype(x.dtype), stride, pads, dilation, groups, cl)
        if y is not None:
            return _add_bias(y, bias, cl, nsp)
    y = jax.lax.conv_general_dilated(
        x,
        weight.astype(x.dtype),
        window_strides=stride,
        padding=pads,
        rhs_dilation=dilation,
        dimension_numbers=_dims(nsp, cl),
        feature_group_count=groups,
    )
    return _add_bias(y, bias, cl, nsp)


_CONV = dict(tensors=("x", "weight", "bias"), **_F)
_CONV_P = dict(
    tensors=("x", "weight", "bias"), namespaces=("paddle.nn.functional", "paddle"), method=None
)


@op("conv1d", amp="white", train_form=True, **_CONV_P)
def conv1d(
    x: jax.Array,
    weight: jax.Array,
    bias: jax.Array | None = None,
    stride: int | Sequence[int] = 1,
    padding: int | str | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    data_format: str = "NCL",
    name: str | None = None,
) -> jax.Array:
    """1-D convolution; weight [out_channels, in_channels / groups, k]."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, 1, "conv1d")


@op("conv2d", amp="white", train_form=True, **_CONV_P)
def conv2d(
    x: jax.Array,
    weight: jax.Array,
    bias: jax.Array | None = None,
    stride: int | Sequence[int] = 1,
    padding: int | str | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    data_format: str = "NCHW",
    name: str | None = None,
) -> jax.Array:
    """2-D convolution; weight [out_channels, in_channels / groups, kh, kw]; padding is an int,
    [ph, pw], [top, bottom, left, right], per-axis pairs, 'SAME' or 'VALID'."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, 2, "conv2d")


@op("conv3d", **_CONV_P)
def conv3d(
    x: jax.Array,
    weight: jax.Array,
    bias: jax.Array | None = None,
    stride: int | Sequence[int] = 1,
    padding: int | str | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> jax.Array:
    """3-D convolution; weight [out_channels, in_channels / groups, kd, kh, kw]."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, 3, "conv3d")


# -- transposed convolutions ------------------------------------------------------------------
def _conv_transpose(
    x,
    weight,
    bias,
    stride,
    padding,
    output_padding,
    dilation,
    groups,
    output_size,
    data_format,
    nsp,
    name,
):
    cl = channel_last(data_format, nsp)
    if x.ndim != nsp + 2:
        raise ValueError(
            f"Input x of {name} should be a {nsp + 2}-D Tensor ({nsp + 2}D), but received x "
            f"with the shape of {list(x.shape)}"
        )
    check_operands(x, weight, None, name, nsp)
    c_in = x.shape[-1] if cl else x.shape[1]
    if c_in != weight.shape[0]:
        raise ValueError(
            f"(InvalidArgument) The number of input channels should be equal to filter "
            f"channels for Op(conv_transpose). But received: the input's channels is {c_in}, "
            f"the input's shape is {list(x.shape)}; the filter's channels is {weight.shape[0]}, "
            f"the filter's shape is {list(weight.shape)}."
        )
    if c_in % groups:
        raise ValueError(
            f"The number of input channels ({c_in}) must be divisible by groups ({groups})"
        )
    stride = ntuple(stride, nsp, "stride")
    dilation = ntuple(dilation, nsp, "dilation")
    k = weight.shape[2:]
    spatial = x.shape[1:-1] if cl else x.shape[2:]
    pads = parse_padding(padding, nsp, cl)
    check_conv_geometry(stride, dilation, pads)
    if pads == "SAME":
        pads, dilation = same_pads(spatial, k, stride), (1,) * nsp
    elif pads == "VALID":
        pads = ((0, 0),) * nsp
    inferred = [
        (n - 1) * s - lo - hi + d * (kk - 1) + 1
        for n, s, (lo, hi), d, kk in zip(spatial, stride, pads, dilation, k)
    ]
    if output_size is not None:
        output_size = ntuple(output_size, nsp, "output_size")
        for o, i, s in zip(output_size, inferred, stride):
            if not i <= o < i + s:
                raise ValueError(
                    f"(InvalidArgument) output_size of Op(ConvTransposeOp) should be less than "
                    f"inferred size + stride and not less than inferred size. But received "
                    f"output_size = {list(output_size)}, inferred size = {inferred}, stride = "
                    f"{list(stride)}"
                )
        opad = tuple(o - i for o, i in zip(output_size, inferred))
    else:
        opad = ntuple(output_padding, nsp, "output_padding")
        for o, s, d in zip(opad, stride, dilation):
            if o >= s and o >= d:
                raise ValueError(
                    f"output_padding ({list(opad)}) must be smaller than stride "
                    f"({list(stride)}) or dilation ({list(dilation)})"
                )
    weight = weight.astype(x.dtype)
    y = None
    if jax.default_backend() == "cpu":
        sizes = [i + o for i, o in zip(inferred, opad)]
        y = _conv_cpu.lower_transpose(x, weight, stride, pads, opad, sizes, dilation, groups, cl)
    if y is None:
        y = transpose_by_dilation(x, weight, stride, pads, opad, dilation, groups, cl)
    return _add_bias(y, bias, cl, nsp)


def transposed_kernel(weight, groups: int):
    """A transposed convolution's weight [in, out/g, *k] as the plain convolution's [out, in/g,
    *k] (per group), spatially flipped."""
    c_in, c_out_g, k = weight.shape[0], weight.shape[1], tuple(weight.shape[2:])
    w = weight.reshape((groups, c_in // groups, c_out_g) + k)
    w = jnp.swapaxes(w, 1, 2).reshape((groups * c_out_g, c_in // groups) + k)
    return jnp.flip(w, axis=tuple(range(2, 2 + len(k))))


def transpose_pads(pads, dilation, kernel, opad):
    """The padding of the plain convolution (over the stride-dilated input) that a transposed
    convolution with Paddle's ``pads`` and ``output_padding`` is."""
    return [
        (d * (kk - 1) - lo, d * (kk - 1) - hi + o)
        for (lo, hi), d, kk, o in zip(pads, dilation, kernel, opad)
    ]


def transpose_by_dilation(x, weight, stride, pads, opad, dilation, groups: int, cl: bool):
    """A transposed convolution as XLA's convolution of the stride-dilated input."""
    nsp = x.ndim - 2
    return jax.lax.conv_general_dilated(
        x,
        transposed_kernel(weight, groups),
        window_strides=(1,) * nsp,
        padding=transpose_pads(pads, dilation, weight.shape[2:], opad),
        lhs_dilation=stride,
        rhs_dilation=dilation,
        dimension_numbers=_dims(nsp, cl),
        feature_group_count=groups,
    )


@op("conv1d_transpose", **_CONV)
def conv1d_transpose(
    x: jax.Array,
    weight: jax.Array,
    bias: jax.Array | None = None,
    stride: int | Sequence[int] = 1,
    padding: int | str | Sequence[int] = 0,
    output_padding: int | Sequence[int] = 0,
    groups: int = 1,
    dilation: int | Sequence[int] = 1,
    output_size: int | Sequence[int] | None = None,
    data_format: str = "NCL",
) -> jax.Array:
    """1-D transposed convolution; weight [in_channels, out_channels / groups, k]."""
    return _conv_transpose(
        x,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        dilation,
        groups,
        output_size,
        data_format,
        1,
        "conv1d_transpose",
    )


@op("conv2d_transpose", **_CONV)
def conv2d_transpose(
    x: jax.Array,
    weight: jax.Array,
    bias: jax.Array | None = None,
    stride: int | Sequence[int] = 1,
    padding: int | str | Sequence[int] = 0,
    output_padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    output_size: int | Sequence[int] | None = None,
    data_format: str = "NCHW",
) -> jax.Array:
    """2-D transposed convolution; weight [in_channels, out_channels / groups, kh, kw]."""
    return _conv_transpose(
        x,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        dilation,
        groups,
        output_size,
        data_format,
        2,
        "conv2d_transpose",
    )


@op("conv3d_transpose", **_CONV)
def conv3d_transpose(
    x: jax.Array,
    weight: jax.Array,
    bias: jax.Array | None = None,
    stride: int | Sequence[int] = 1,
    padding: int | str | Sequence[int] = 0,
    output_padding: int | Sequence[int] = 0,
    groups: int = 1,
    dilation: int | Sequence[int] = 1,
    output_size: int | Sequence[int] | None = None,
    data_format: str = "NCDHW",
) -> jax.Array:
    """3-D transposed convolution; weight [in_channels, out_channels / groups, kd, kh, kw]."""
    return _conv_transpose(
        x,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        dilation,
        groups,
        output_size,
        data_format,
        3,
        "conv3d_transpose",
    )
