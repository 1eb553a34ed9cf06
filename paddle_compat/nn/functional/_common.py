"""paddle.nn.functional common ops: linear, bilinear, dropout family, pad, one_hot, embedding,
normalize, cosine_similarity, pixel/channel shuffles, unfold/fold, label_smooth."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as _dt
from ..._core import host_random as _host
from ..._core import random as _random
from ..._core import runtime_checks, trace_state
from ..._core.dtype import DTypeLike
from ..._core.registry import op
from ..._core.tensor import Tensor

_F = dict(namespaces=("paddle.nn.functional",), method=None)
_PRIVATE = dict(namespaces=(), method=None)


def as_list(v, n: int, name: str = "value") -> list:
    """An int or a sequence of n ints -> a list of n ints."""
    if isinstance(v, int | np.integer):
        return [int(v)] * n
    v = [int(i) for i in v]
    if len(v) != n:
        raise ValueError(f"{name} should be an int or a list of {n} ints, got {v}")
    return v


# -- linear -----------------------------------------------------------------------------------
@op("linear", amp="white", tensors=("x", "weight", "bias"), **_F)
def linear(x: jax.Array, weight: jax.Array, bias: jax.Array | None = None) -> jax.Array:
    """x @ weight + bias, with weight of shape [in_features, out_features]."""
    if x.shape[-1] != weight.shape[0]:
        raise ValueError(
            f"(InvalidArgument) linear: the last dimension of x [{x.shape[-1]}] (x's shape "
            f"{list(x.shape)}) must equal the first dimension of weight [{weight.shape[0]}] "
            f"(weight's shape {list(weight.shape)})"
        )
    if x.dtype != weight.dtype:
        raise ValueError(
            f"(InvalidArgument) linear: x has dtype {_dt.to_dtype(x.dtype).name} but weight has "
            f"dtype {_dt.to_dtype(weight.dtype).name}"
        )
    y = jnp.matmul(x, weight)
    if bias is None:
        return y
    trailing = zip(reversed(y.shape), reversed(bias.shape))  # sizes may be symbolic (jit.save)
    if bias.ndim > y.ndim or any(isinstance(o, int) and b not in (1, o) for o, b in trailing):
        raise ValueError(
            f"(InvalidArgument) linear: the bias of shape {list(bias.shape)} cannot be broadcast "
            f"to the output x @ weight of shape {list(y.shape)}"
        )
    return y + bias


@op("bilinear", tensors=("x1", "x2", "weight", "bias"), **_F)
def bilinear(
    x1: jax.Array, x2: jax.Array, weight: jax.Array, bias: jax.Array | None = None
) -> jax.Array:
    """out[b, o] = x1[b] @ weight[o] @ x2[b] + bias[o]; weight is [out, in1, in2]."""
    y = jnp.einsum("bi,oij,bj->bo", x1, weight, x2)
    return y if bias is None else y + bias.reshape(1, -1)


# -- dropout family ---------------------------------------------------------------------------
def _check_p(p):
    if isinstance(p, Tensor):
        p = float(p)
    if not isinstance(p, int | float) or isinstance(p, bool):
        raise TypeError("p argument should be a number or Variable")
    if p < 0 or p > 1:
        raise ValueError("p argument should between 0 and 1")
    return float(p)


def _apply_keep(x, keep, p, mode, per_element):
    """Paddle's two dropout formulas: its kernel divides kept elements by 1 - p; the axis path
    multiplies by the float32 scale 1 / (1 - p)."""
    if mode != "upscale_in_train":
        return jnp.where(keep, x, jnp.zeros((), x.dtype))
    if p == 1.0:
        return jnp.zeros_like(x)
    if per_element:
        kept = x / jnp.asarray(np.float32(1.0 - p), x.dtype)
    else:
        kept = x * jnp.asarray(np.float32(1.0 / (1.0 - p)), x.dtype)
    return jnp.where(keep, kept, jnp.zeros((), x.dtype))


def _mask_shape(x, mask_axes):
    return tuple(x.shape[i] if i in mask_axes else 1 for i in range(x.ndim))


@op("_nn_dropout", tensors=("x", "key"), **_PRIVATE)
def _dropout(x, key, p, mask_axes, mode):
    shape = _mask_shape(x, mask_axes)
    keep = jax.random.bernoulli(jax.random.wrap_key_data(key), 1.0 - p, shape)
    return _apply_keep(x, keep, p, mode, len(mask_axes) == x.ndim)


@op("_nn_dropout_keep", tensors=("x", "keep"), **_PRIVATE)
def _dropout_keep(x, keep, p, mode, per_element):
    return _apply_keep(x, keep, p, mode, per_element)


@op("_nn_dropout_divide", tensors=("x", "divisor"), **_PRIVATE)
def _dropout_divide(x, divisor):
    # divisor: 1 - p where kept, inf where dropped. A full array, not a scalar: XLA rewrites
    # division by a broadcast scalar into a multiplication by its reciprocal (not Paddle's
    # rounding). The gradient at dropped elements is g / inf = 0.
    return jnp.where(jnp.isinf(divisor), jnp.zeros((), x.dtype), x / divisor)


def _host_keep(engine, shape, p: float) -> np.ndarray:
    """Paddle's CPU dropout mask: keep where a float32 uniform sample is not below p."""
    u = _host.uniform(engine, int(np.prod(shape, dtype=np.int64)), 0.0, 1.0, np.float32)
    return (u >= np.float32(p)).reshape(shape)


def _host_dropout(x, engine, p, axes, mode):
    keep = _host_keep(engine, _mask_shape(x, axes), p)
    if len(axes) == len(x.shape) and mode == "upscale_in_train" and p < 1.0:
        div = np.where(keep, np.float32(1.0 - p), np.float32(np.inf)).astype(x.dtype.np)
        return _dropout_divide(x, Tensor(div))
    return _dropout_keep(x, Tensor(keep), p, mode, len(axes) == len(x.shape))


@op("_nn_scale_const", **_PRIVATE)
def _scale_const(x, factor):
    return x * jnp.asarray(factor, x.dtype)


@op("dropout", composite=True, **_F)
def dropout(
    x: Tensor,
    p: float = 0.5,
    axis: int | Sequence[int] | None = None,
    training: bool = True,
    inplace: bool = False,
    mode: str = "upscale_in_train",
) -> Tensor:
    """Zero elements with probability p (per element, or per slice along ``axis``)."""
    p = _check_p(p)
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")
    if p == 0:
        return x
    if not training:
        return _scale_const(x, 1.0 if mode == "upscale_in_train" else 1.0 - p)
    nd = len(x.shape)
    if axis is None:
        axes = tuple(range(nd))
    else:
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        if builtins.max(axes) >= nd or builtins.min(axes) < -nd:
            raise ValueError(
                "axis value should be greater than or equal to 0 and less than dimensions of "
                f"x:{nd}, but get axis value:{builtins.max(axes)}"
            )
        axes = tuple(sorted(a % nd for a in axes))
    eng = _random.host_engine()
    if eng is not None:
        return _host_dropout(x, eng, p, axes, mode)
    return _dropout(x, Tensor(_random.next_key()), p, axes, mode)


def _feature_dropout(x, p, training, data_format, nd):
    if len(x.shape) != nd:
        raise ValueError(f"dimensions of x should be {nd}, but received {len(x.shape)}")
    ch = 1 if data_format[1] == "C" else nd - 1
    return dropout(x, p=p, axis=[0, ch], training=training)


@op("dropout1d", composite=True, **_F)
def dropout1d(
    input: Tensor,
    p: float = 0.5,
    training: bool = True,  # noqa: A002
    inplace: bool = False,
) -> Tensor:
    """Zero whole channels of an [N, C, L] (or [C, L]) input with probability p."""
    if len(input.shape) == 2:
        return dropout(input, p=p, axis=[0], training=training)
    return _feature_dropout(input, p, training, "NCL", 3)


@op("dropout2d", composite=True, **_F)
def dropout2d(
    x: Tensor, p: float = 0.5, training: bool = True, data_format: str = "NCHW"
) -> Tensor:
    """Zero whole channels of a 4-D input with probability p."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"Attr(data_format) should be 'NCHW' or 'NHWC', got {data_format}")
    return _feature_dropout(x, p, training, data_format, 4)


@op("dropout3d", composite=True, **_F)
def dropout3d(
    x: Tensor, p: float = 0.5, training: bool = True, data_format: str = "NCDHW"
) -> Tensor:
    """Zero whole channels of a 5-D input with probability p."""
    if data_format not in ("NCDHW", "NDHWC"):
        raise ValueError(f"Attr(data_format) should be 'NCDHW' or 'NDHWC', got {data_format}")
    return _feature_dropout(x, p, training, data_format, 5)


_SELU_ALPHA_P = -1.7580993408473766  # -scale * alpha of selu


def _alpha_shape(x, feature):
    return tuple(x.shape) if not feature else tuple(x.shape[:2]) + (1,) * (len(x.shape) - 2)


@op("_nn_alpha_dropout", tensors=("x", "key"), **_PRIVATE)
def _alpha_dropout(x, key, p, feature):
    keep = jax.random.bernoulli(jax.random.wrap_key_data(key), 1.0 - p, _alpha_shape(x, feature))
    return _alpha_keep(x, keep, p)


@op("_nn_alpha_dropout_keep", tensors=("x", "keep"), **_PRIVATE)
def _alpha_dropout_keep(x, keep, p):
    return _alpha_keep(x, keep, p)


def _alpha_keep(x, keep, p):
    a = ((1 - p) * (1 + p * _SELU_ALPHA_P**2)) ** -0.5
    b = -a * _SELU_ALPHA_P * p
    y = jnp.where(keep, x, jnp.asarray(_SELU_ALPHA_P, x.dtype))
    return y * jnp.asarray(a, x.dtype) + jnp.asarray(b, x.dtype)


def _run_alpha_dropout(x, p, training, feature):
    p = _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return _scale_const(x, 0.0)
    eng = _random.host_engine()
    if eng is not None:
        keep = Tensor(_host_keep(eng, _alpha_shape(x, feature), p))
        return _alpha_dropout_keep(x, keep, p)
    return _alpha_dropout(x, Tensor(_random.next_key()), p, feature)


@op("alpha_dropout", composite=True, **_F)
def alpha_dropout(x: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Dropout that keeps the self-normalizing mean/variance of selu activations."""
    return _run_alpha_dropout(x, p, training, False)


@op("feature_alpha_dropout", composite=True, **_F)
def feature_alpha_dropout(x: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """alpha_dropout over whole channels."""
    return _run_alpha_dropout(x, p, training, True)


# -- pad --------------------------------------------------------------------------------------
_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}
_CHANNEL_LAST = {"NLC", "NHWC", "NDHWC"}
_PAD_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def pad_widths(shape, pad, mode, data_format, pad_from_left_axis=True):
    """Paddle's pad list -> jnp.pad widths: 2*ndim entries pad every axis (pairs from the left
    axis), otherwise pairs pad the spatial axes starting from the last one."""
    nd = len(shape)
    pad = [int(p) for p in pad]
    if len(pad) % 2:
        raise ValueError(
            f"(InvalidArgument) Size of paddings should be even, but received {len(pad)}"
        )
    widths = [(0, 0)] * nd
    if mode == "constant" and len(pad) == 2 * nd:
        pairs = [(pad[2 * i], pad[2 * i + 1]) for i in range(nd)]
        return pairs if pad_from_left_axis else pairs[::-1]
    if mode != "constant":
        if nd not in (3, 4, 5) or len(pad) != 2 * (nd - 2):
            raise ValueError(
                f"(InvalidArgument) Size of paddings should be equal to {2 * (nd - 2)}, "
                f"but received {len(pad)}."
            )
    if len(pad) > 2 * nd:
        raise ValueError(
            f"The length of pad ({len(pad)}) is larger than twice the rank of x ({nd})"
        )
    if data_format is not None and data_format in _CHANNEL_LAST:
        spatial = list(range(1, nd - 1))
    elif nd >= 3 and mode != "constant":
        spatial = list(range(2, nd))
    else:
        spatial = list(range(nd))
    for i in range(len(pad) // 2):
        widths[spatial[-1 - i]] = (pad[2 * i], pad[2 * i + 1])
    return widths


@op("pad", tensors=("x",), **_F)
def pad(
    x: jax.Array,
    pad: Sequence[int],
    mode: str = "constant",
    value: float = 0.0,  # noqa: A002
    data_format: str | None = None,
    pad_from_left_axis: bool = True,
) -> jax.Array:
    """Pad x: constant/reflect/replicate/circular (see ``pad_widths`` for the pad layout)."""
    if mode not in _PAD_MODES:
        raise AssertionError(
            f"mode should be one of constant, reflect, replicate, circular, but got {mode}."
        )
    formats = _PAD_FORMATS.get(x.ndim)
    if data_format is None and formats:
        data_format = formats[0]
    every_axis = mode == "constant" and len(pad) == 2 * x.ndim
    if formats and not every_axis and data_format not in formats:
        raise AssertionError(
            f"input tensor dimension is {x.ndim}, it's data format should be in "
            f"{list(formats)} but got {data_format}"
        )
    w = pad_widths(x.shape, pad, mode, data_format, pad_from_left_axis)
    if mode == "reflect":
        for axis, (n, (lo, hi)) in enumerate(zip(x.shape, w)):
            if builtins.max(lo, hi) >= n:
                raise ValueError(
                    f"(InvalidArgument) The size of axis {axis} of x should be greater than its "
                    f"pads in reflect mode, but received size({n}) and pads({lo}) and ({hi})"
                )
    if builtins.any(a < 0 or b < 0 for a, b in w):  # negative pads crop
        sl = tuple(slice(-a if a < 0 else None, b if b < 0 else None) for a, b in w)
        x = x[sl]
        w = [(builtins.max(a, 0), builtins.max(b, 0)) for a, b in w]
    if mode == "constant":
        return jnp.pad(x, w, mode="constant", constant_values=jnp.asarray(value, x.dtype))
    return jnp.pad(x, w, mode=_PAD_MODES[mode])


@op("zeropad2d", composite=True, **_F)
def zeropad2d(x: Tensor, padding: int | Sequence[int], data_format: str = "NCHW") -> Tensor:
    """Zero-pad the H and W axes by [left, right, top, bottom]."""
    return pad(
        x, as_list(padding, 4, "padding"), mode="constant", value=0.0, data_format=data_format
    )


# -- one_hot, embedding -----------------------------------------------------------------------
@op("_nn_one_hot", differentiable=False, dtypes=("int32", "int64"), kernel="one_hot", **_PRIVATE)
def _one_hot(x, num_classes):
    return jax.nn.one_hot(x, num_classes, dtype=_dt.default_float().np)


@op("one_hot", composite=True, **_F)
def one_hot(x: Tensor, num_classes: int = -1) -> Tensor:
    """One-hot float32 encoding with a new last axis of size ``num_classes``."""
    if isinstance(num_classes, Tensor):
        num_classes = int(num_classes)
    if num_classes == -1:
        trace_state.check_concrete(x, "paddle.nn.functional.one_hot(num_classes=-1)")
        num_classes = int(np.asarray(x._value).max()) + 1
    runtime_checks.check_in_range(
        x,
        0,
        num_classes,
        ValueError,
        "(InvalidArgument) Illegal index value, Input(input) value should be "
        "less than Input(depth), but received input ({bad}) not less than depth ({hi})",
        "(InvalidArgument) Illegal index value, Input(input) value should be at least 0, but "
        "received input ({bad}) less than 0",
    )
    return _one_hot(x, num_classes)


@op("_nn_embedding", tensors=("x", "weight"), **_PRIVATE)
def _embedding(x, weight, padding_idx):
    out = jnp.take(weight, x, axis=0)
    if padding_idx is not None:
        out = jnp.where((x == padding_idx)[..., None], jnp.zeros((), weight.dtype), out)
    return out


@op("embedding", amp="black_always", composite=True, **_F)
def embedding(
    x: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    sparse: bool = False,
    scale_grad_by_freq: bool = False,
) -> Tensor:
    """Rows of ``weight`` [num_embeddings, dim] at the int ids ``x``; the ``padding_idx`` row
    reads as zeros and gets no gradient."""
    if len(weight.shape) != 2:
        raise ValueError(
            "(InvalidArgument) ShapeError: The dimensions of the 'lookup table' (weight) must be "
            f"2. But received lookup table's dimensions = {len(weight.shape)}, lookup table's "
            f"shape = {list(weight.shape)}."
        )
    n = weight.shape[0]
    if padding_idx is not None:
        if padding_idx >= n or padding_idx < -n:
            raise ValueError(f"padding_idx must be within [-{n}, {n}), got {padding_idx}")
        padding_idx = padding_idx % n
    ids = str(x.dtype).replace("paddle.", "")
    if ids not in ("int32", "int64"):
        raise NotImplementedError(
            f"(Unimplemented) embedding input only support int32 and int64, but get {ids}"
        )
    runtime_checks.check_in_range(
        x,
        0,
        n,
        ValueError,
        "(InvalidArgument) Variable value (input) of OP(embedding) expected >= 0 and "
        "< {hi}, but got {bad}. Please check input value.",
    )
    if max_norm is not None:
        embedding_renorm_(x, weight, max_norm, norm_type)
    return _embedding(x, weight, padding_idx)


@op("_nn_renorm_rows", tensors=("x", "weight"), differentiable=False, **_PRIVATE)
def _renorm_rows(x, weight, max_norm, norm_type):
    rows = jnp.zeros(weight.shape[0], bool).at[x.reshape(-1)].set(True)
    norms = jnp.sum(jnp.abs(weight) ** norm_type, axis=1) ** (1.0 / norm_type)
    factor = jnp.where(rows & (norms > max_norm), max_norm / (norms + 1e-7), 1.0)
    return weight * factor[:, None].astype(weight.dtype)


@op("embedding_renorm_", composite=True, **_F)
def embedding_renorm_(x: Tensor, weight: Tensor, max_norm: float, norm_type: float = 2.0) -> Tensor:
    """Rescale (in place) the rows of ``weight`` used by ``x`` to norm at most ``max_norm``."""
    new = _renorm_rows(x, weight, float(max_norm), float(norm_type))
    weight._set_value(new._val)
    return weight


# -- normalize, distances ---------------------------------------------------------------------
def _pnorm(x, p, axis, keepdims=True):
    if p == float("inf"):
        return jnp.max(jnp.abs(x), axis=axis, keepdims=keepdims)
    if p == -float("inf"):
        return jnp.min(jnp.abs(x), axis=axis, keepdims=keepdims)
    if p == 2:
        return jnp.sqrt(jnp.sum(x * x, axis=axis, keepdims=keepdims))
    if p == 0:
        return jnp.sum((x != 0).astype(x.dtype), axis=axis, keepdims=keepdims)
    return jnp.sum(jnp.abs(x) ** p, axis=axis, keepdims=keepdims) ** (1.0 / p)


@op("normalize", **_F)
def normalize(x: jax.Array, p: float = 2, axis: int = 1, epsilon: float = 1e-12) -> jax.Array:
    """x / max(||x||_p along axis, epsilon)."""
    if x.ndim == 1 and axis in (0, -1):
        axis = 0
    n = _pnorm(x, float(p), axis)
    return x / jnp.maximum(n, jnp.asarray(epsilon, x.dtype))


@op("cosine_similarity", amp="black", tensors=("x1", "x2"), **_F)
def cosine_similarity(x1: jax.Array, x2: jax.Array, axis: int = 1, eps: float = 1e-8) -> jax.Array:
    """sum(x1*x2) / sqrt(max(sum(x1^2) * sum(x2^2), eps^2)) along axis."""
    w12 = jnp.sum(x1 * x2, axis=axis)
    w1 = jnp.sum(x1 * x1, axis=axis)
    w2 = jnp.sum(x2 * x2, axis=axis)
    return w12 / jnp.sqrt(jnp.maximum(w1 * w2, jnp.asarray(eps * eps, w1.dtype)))


@op("pairwise_distance", tensors=("x", "y"), **_F)
def pairwise_distance(
    x: jax.Array, y: jax.Array, p: float = 2.0, epsilon: float = 1e-6, keepdim: bool = False
) -> jax.Array:
    """||x - y + epsilon||_p along the last axis."""
    d = x - y + jnp.asarray(epsilon, x.dtype)
    return _pnorm(d, float(p), -1, keepdims=keepdim)


@op(
    "_nn_label_smooth",
    tensors=("label", "prior_dist"),
    dtypes=("float16", "bfloat16", "float32", "float64"),
    kernel="label_smooth",
    **_PRIVATE,
)
def _label_smooth(label, prior_dist, epsilon):
    e = jnp.asarray(epsilon, label.dtype)
    if prior_dist is None:
        return (1 - e) * label + e / label.shape[-1]
    return (1 - e) * label + e * prior_dist.reshape(-1).astype(label.dtype)


@op("label_smooth", composite=True, **_F)
def label_smooth(label: Tensor, prior_dist: Tensor | None = None, epsilon: float = 0.1) -> Tensor:
    """(1 - epsilon) * label + epsilon * (prior_dist or uniform 1 / num_classes); like Paddle,
    no gradient reaches prior_dist."""
    if epsilon > 1.0 or epsilon < 0.0:
        raise ValueError("The value of epsilon must be between 0 and 1.")
    if isinstance(prior_dist, Tensor):
        prior_dist = prior_dist.detach()
    return _label_smooth(label, prior_dist, float(epsilon))


# -- shuffles ---------------------------------------------------------------------------------
def _check_fmt(fmt, x=None, factor=None, name=""):
    """data_format, a 4-D x and a positive factor (upscale_factor, downscale_factor, groups)."""
    if fmt not in ("NCHW", "NHWC"):
        raise ValueError(
            f"Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): {fmt}."
        )
    if x is not None and x.ndim != 4:
        raise ValueError(
            f"Input x should be a 4-D tensor (4D) of format [N, C, H, W] or [N, H, W, C], but "
            f"received x with the shape of {list(x.shape)} ({x.ndim}-D)"
        )
    if factor is not None and factor <= 0:
        raise ValueError(f"{name} must be positive, but received {name} = {factor}")


def _spatial(x, fmt):
    return (x.shape[1], *x.shape[2:]) if fmt == "NCHW" else (x.shape[3], *x.shape[1:3])


@op("pixel_shuffle", **_F)
def pixel_shuffle(x: jax.Array, upscale_factor: int, data_format: str = "NCHW") -> jax.Array:
    """[N, C*r*r, H, W] -> [N, C, H*r, W*r]."""
    _check_fmt(data_format, x, upscale_factor, "upscale_factor")
    r = upscale_factor
    c = _spatial(x, data_format)[0]
    if c % (r * r):
        raise ValueError(
            f"(InvalidArgument) The square of upscale_factor[{r * r}] should divide the number "
            f"of channel[{c}]"
        )
    if data_format == "NCHW":
        n, c, h, w = x.shape
        y = x.reshape(n, c // (r * r), r, r, h, w).transpose(0, 1, 4, 2, 5, 3)
        return y.reshape(n, c // (r * r), h * r, w * r)
    n, h, w, c = x.shape
    y = x.reshape(n, h, w, c // (r * r), r, r).transpose(0, 1, 4, 2, 5, 3)
    return y.reshape(n, h * r, w * r, c // (r * r))


@op("pixel_unshuffle", **_F)
def pixel_unshuffle(x: jax.Array, downscale_factor: int, data_format: str = "NCHW") -> jax.Array:
    """[N, C, H*r, W*r] -> [N, C*r*r, H, W]."""
    _check_fmt(data_format, x, downscale_factor, "downscale_factor")
    r = downscale_factor
    _, h, w = _spatial(x, data_format)
    if h % r or w % r:
        raise ValueError(
            f"(InvalidArgument) Downscale factor[{r}] should divide both height[{h}] and width[{w}]"
        )
    if data_format == "NCHW":
        n, c, h, w = x.shape
        y = x.reshape(n, c, h // r, r, w // r, r).transpose(0, 1, 3, 5, 2, 4)
        return y.reshape(n, c * r * r, h // r, w // r)
    n, h, w, c = x.shape
    y = x.reshape(n, h // r, r, w // r, r, c).transpose(0, 1, 3, 5, 2, 4)
    return y.reshape(n, h // r, w // r, c * r * r)


@op("channel_shuffle", **_F)
def channel_shuffle(x: jax.Array, groups: int, data_format: str = "NCHW") -> jax.Array:
    """Interleave channels: [g, C/g] -> [C/g, g]."""
    _check_fmt(data_format, x, groups, "groups")
    c = _spatial(x, data_format)[0]
    if c % groups:
        raise ValueError(
            f"(InvalidArgument) The number of groups to divide channels in [{groups}] should "
            f"divide the number of channel [{c}]"
        )
    if data_format == "NCHW":
        n, c, h, w = x.shape
        return x.reshape(n, groups, c // groups, h, w).transpose(0, 2, 1, 3, 4).reshape(x.shape)
    n, h, w, c = x.shape
    return x.reshape(n, h, w, groups, c // groups).transpose(0, 1, 2, 4, 3).reshape(x.shape)


# -- unfold / fold (im2col / col2im) ----------------------------------------------------------
def _im2col(x, k, s, p, d):
    n, c = x.shape[:2]
    pt, pl, pb, pr = p
    x = jnp.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    patches = jax.lax.conv_general_dilated_patches(
        x,
        filter_shape=tuple(k),
        window_strides=tuple(s),
        padding="VALID",
        rhs_dilation=tuple(d),
        dimension_numbers=("NCHW", "OIHW", "NCHW"),
        precision=jax.lax.Precision.HIGHEST,
    )
    return patches.reshape(n, c * k[0] * k[1], -1)


def _pads4(p):
    p = as_list(p, 2, "paddings") if isinstance(p, int) or len(p) == 2 else as_list(p, 4)
    if len(p) == 2:
        return [p[0], p[1], p[0], p[1]]
    return [p[0], p[1], p[2], p[3]]  # top, left, bottom, right


@op("unfold", **_F)
def unfold(
    x: jax.Array,
    kernel_sizes: int | Sequence[int],
    strides: int | Sequence[int] = 1,
    paddings: int | Sequence[int] = 0,
    dilations: int | Sequence[int] = 1,
) -> jax.Array:
    """im2col: [N, C, H, W] -> [N, C*kh*kw, L] sliding blocks."""
    if x.ndim != 4:
        raise ValueError(f"The input of unfold should be a 4-D Tensor, got shape {list(x.shape)}")
    k, s, d, p = (
        as_list(kernel_sizes, 2),
        as_list(strides, 2),
        as_list(dilations, 2),
        _pads4(paddings),
    )
    if min(s) <= 0:
        raise ValueError(f"(InvalidArgument) The `strides` should be greater than zero, got {s}")
    pads = (p[0] + p[2], p[1] + p[3])
    blocks = [
        (n + pp - (dd * (kk - 1) + 1)) // ss + 1
        for n, pp, kk, ss, dd in zip(x.shape[2:], pads, k, s, d)
    ]
    if min(blocks) <= 0:
        raise ValueError(
            f"(InvalidArgument) The sliding blocks calculated from input spatial size "
            f"{tuple(x.shape[2:])}, kernel_sizes {tuple(k)}, strides {tuple(s)}, dilations "
            f"{tuple(d)}, is {tuple(blocks)}, which should be a positive integer."
        )
    return _im2col(x, k, s, p, d)


@op("fold", **_F)
def fold(
    x: jax.Array,
    output_sizes: int | Sequence[int],
    kernel_sizes: int | Sequence[int],
    strides: int | Sequence[int] = 1,
    paddings: int | Sequence[int] = 0,
    dilations: int | Sequence[int] = 1,
) -> jax.Array:
    """col2im, the adjoint of unfold: sums overlapping blocks into [N, C, H, W]."""
    k = as_list(kernel_sizes, 2)
    n, ckk, _ = x.shape
    c = ckk // (k[0] * k[1])
    out = as_list(output_sizes, 2)
    args = (k, as_list(strides, 2), _pads4(paddings), as_list(dilations, 2))
    zero = jnp.zeros((n, c, out[0], out[1]), x.dtype)
    (y,) = jax.linear_transpose(lambda z: _im2col(z, *args), zero)(x)
    return y


@op("_nn_sequence_mask", differentiable=False, **_PRIVATE)
def _sequence_mask(x, maxlen, dtype):
    return (jnp.arange(maxlen) < x[..., None]).astype(_dt.to_dtype(dtype).np)


@op("sequence_mask", composite=True, **_F)
def sequence_mask(x: Tensor, maxlen: int | None = None, dtype: DTypeLike = "int64") -> Tensor:
    """mask[..., j] = j < x[...]; maxlen defaults to max(x)."""
    if maxlen is None:
        trace_state.check_concrete(x, "paddle.nn.functional.sequence_mask(maxlen=None)")
        maxlen = int(np.asarray(x._value).max())
    return _sequence_mask(x, int(maxlen), dtype)
