"""paddle.nn.functional.interpolate / upsample: nearest, (bi/tri)linear, bicubic, area (an
adaptive average pool, as Paddle's).

Resampling is separable: for each spatial axis the source indices and weights are computed on
the host with numpy (shapes are static) in float32, the way Paddle's CPU kernels do, and applied
with ``_take``, so gradients come from JAX. Where the sizes are in a small ratio the indices
repeat with a period: a downsample by an integer factor reads strided slices, and a nearest
resize by a small ratio (2x, 3x, 6 -> 9) interleaves one strided slice per output phase, in
place of XLA's gather (whose gradient is a scatter; 2x nearest upsampling of [8, 64, 32, 32],
forward and backward, 5.1 -> 0.5 ms on the 2-core CPU; a 2x bilinear downsample of
[8, 32, 64, 64] 3.4 -> 0.9 ms). Linear upsampling and cubic resizing keep the gather:
interleaving their weighted phases, or four strided taps, measured no faster."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import jax.numpy as jnp
import numpy as np
from jax import lax

from ..._core import dtype as _dt
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._conv_cpu import spatial_axes
from ._pooling import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d

_F = dict(namespaces=("paddle.nn.functional",), method=None)
_MODES = ("area", "linear", "bilinear", "trilinear", "bicubic", "nearest")
_NDIM = {
    "linear": (3,),
    "bilinear": (4,),
    "trilinear": (5,),
    "bicubic": (4,),
    "nearest": (4, 5),
    "area": (3, 4, 5),
}
_NDIM_ERROR = {  # Paddle's messages, spacing included
    "linear": "'linear' only support 3-D tensor.",
    "bilinear": "'bilinear' and 'bicubic' only support 4-D tensor.",
    "bicubic": "'bilinear' and 'bicubic' only support 4-D tensor.",
    "trilinear": "'trilinear'only support 5-D tensor.",
    "nearest": "'NEAREST' only support 4-D  or 5-D tensor.",
    "area": "The dimension of the input tensor should only be 3-D, 4-D or 5-D, but the received "
    "dimension is {nd}.",
}
# The dtypes Paddle's CPU kernels take, by kernel (``{mode}_interp``), as its error lists them
_FLOAT_NAMES = ("float64", "float16", "float32")
_KERNEL_DTYPES = {
    "nearest": ("int64", *_FLOAT_NAMES, "int32", "uint8", "bfloat16"),
    "linear": (*_FLOAT_NAMES, "uint8", "bfloat16"),
    "bilinear": (*_FLOAT_NAMES, "uint8", "bfloat16"),
    "trilinear": (*_FLOAT_NAMES, "uint8", "bfloat16"),
    "bicubic": (*_FLOAT_NAMES, "bfloat16"),
}
_FORMATS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _ratio(n_in, n_out, scale, align_corners):
    if n_out <= 1:
        return np.float32(0)
    if align_corners:
        return np.float32((n_in - 1) / (n_out - 1))
    if scale is not None and scale > 0:
        return np.float32(1.0 / scale)
    return np.float32(n_in / n_out)


_MAX_PERIOD = 8  # output positions per period of a nearest resize read as slices
_MAX_PIECES = 4  # pieces a phase may be cut into around the indices that break its pattern


def _phase_pieces(idx, n_in: int, period: int, step: int):
    """How the static index array ``idx`` (output position -> source index in [0, n_in))
    reads as ``period`` phases: phase r holds outputs r, r + period, ..., which read
    ``step * i + c_r`` clamped to the source, except at a few positions. Returns (per phase a
    list of (first source index, stride, count) pieces, the edge copies the source needs on
    each side), or None when the pattern does not hold."""
    reps = len(idx) // period
    i = np.arange(reps)
    phases, pad = [], 0
    for r in range(period):
        got = idx[r::period]
        offsets, counts = np.unique(got - step * i, return_counts=True)
        want = step * i + int(offsets[np.argmax(counts)])
        fits = np.clip(want, 0, n_in - 1) == got  # an edge copy reads the clamped index
        pieces, k = [], 0
        while k < reps:
            e = k + 1
            if fits[k]:
                while e < reps and fits[e]:
                    e += 1
                pieces.append((int(want[k]), step, e - k))
                pad = max(pad, -int(want[k]), int(want[e - 1]) - (n_in - 1))
            else:
                pieces.append((int(got[k]), 1, 1))
            k = e
        if len(pieces) > _MAX_PIECES:
            return None
        phases.append(pieces)
    return phases, pad


def _take(x, idx, axis: int, max_period: int = 1):
    """``jnp.take(x, idx, axis)`` for a static index array, with the same values. Where the
    index repeats with a period of at most ``max_period`` output positions (see the module
    docstring) it reads strided slices of x, its edges copied outward, interleaved."""
    n_in, n_out = x.shape[axis], len(idx)
    g = math.gcd(n_in, n_out)
    period, step = n_out // g, n_in // g
    found = None
    if period <= max_period and n_out > 1:
        found = _phase_pieces(np.asarray(idx, np.int64), n_in, period, step)
    if found is None:
        return jnp.take(x, idx, axis=axis)
    phases, pad = found
    out_shape = x.shape[:axis] + (n_out,) + x.shape[axis + 1 :]
    if pad:
        widths = [(0, 0)] * x.ndim
        widths[axis] = (pad, pad)
        x = jnp.pad(x, widths, mode="edge")
    cols = []
    for pieces in phases:
        parts = [
            lax.slice_in_dim(x, a + pad, a + pad + (n - 1) * st + 1, st, axis)
            for a, st, n in pieces
        ]
        cols.append(parts[0] if len(parts) == 1 else jnp.concatenate(parts, axis))
    if period == 1:
        return cols[0]
    return jnp.stack(cols, axis=axis + 1).reshape(out_shape)  # [.., n_out / period, period, ..]


def _nearest(x, axis, n_in, n_out, ratio):
    k = np.arange(n_out, dtype=np.float32)
    idx = np.minimum((ratio * k).astype(np.int64), n_in - 1)
    return _take(x, idx, axis, _MAX_PERIOD)


def _linear_taps(n_in, n_out, ratio, half_pixel):
    """(first source index, second, weight of the second) per output position, float32. The
    half-pixel source ``(k + 0.5) * ratio - 0.5`` is rounded once, as Paddle's kernel computes
    it (two float32 roundings move some weights by an ulp)."""
    k = np.arange(n_out)
    if half_pixel:
        src = np.maximum(((k + 0.5) * np.float64(ratio) - 0.5).astype(np.float32), np.float32(0))
    else:
        src = ratio * k.astype(np.float32)
    i0 = np.minimum(src.astype(np.int64), n_in - 1)
    i1 = np.minimum(i0 + 1, n_in - 1)
    return i0, i1, (src - i0.astype(np.float32)).astype(np.float32)


def _linear(x, axis, n_in, n_out, ratio, half_pixel):
    i0, i1, lam = _linear_taps(n_in, n_out, ratio, half_pixel)
    shape = [1] * x.ndim
    shape[axis] = n_out
    lam = jnp.asarray(lam.reshape(shape), x.dtype)
    return _take(x, i0, axis) * (1 - lam) + _take(x, i1, axis) * lam


def _linear_corners(x, axes, taps):
    """Bi- or trilinear resizing of float32 ``x`` as Paddle's kernel sums it: over the 2**n
    corners, the last axis's index varying slowest, each corner's value times its weights in
    axis order, every product rounded to float32 on its own (XLA:CPU would fuse a multiply and
    an add into one rounding). The truncated uint8 results then match Paddle's."""
    out = None
    for corner in itertools.product((0, 1), repeat=len(axes)):
        v = x
        for ax, c, (i0, i1, _) in zip(axes, reversed(corner), taps):
            v = _take(v, i1 if c else i0, ax)
        for ax, c, (_, _, lam) in zip(axes, reversed(corner), taps):
            shape = [1] * x.ndim
            shape[ax] = len(lam)
            w = (lam if c else np.float32(1) - lam).reshape(shape).astype(np.float64)
            v = (v.astype(jnp.float64) * jnp.asarray(w)).astype(jnp.float32)  # exact, rounded once
        out = v if out is None else out + v
    return out


def _cubic_weights(t, a=-0.75):
    def near(u):  # |u| <= 1
        return ((a + 2) * u - (a + 3)) * u * u + 1

    def far(u):  # 1 < |u| < 2
        return ((a * u - 5 * a) * u + 8 * a) * u - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _cubic(x, axis, n_in, n_out, ratio, align_corners):
    k = np.arange(n_out, dtype=np.float32)
    src = ratio * k if align_corners else ratio * (k + np.float32(0.5)) - np.float32(0.5)
    base = np.floor(src).astype(np.int64)
    t = (src - base).astype(np.float32)
    ws = _cubic_weights(t)
    shape = [1] * x.ndim
    shape[axis] = n_out
    out = 0
    for j, w in enumerate(ws):
        idx = np.clip(base - 1 + j, 0, n_in - 1)
        out = out + jnp.take(x, idx, axis=axis) * jnp.asarray(w.reshape(shape), x.dtype)
    return out


def _resample(x, out_size, scales, mode, align_corners, align_mode, channel_last):
    axes = spatial_axes(x, channel_last)
    for ax, n_out, sc in zip(axes, out_size, scales):
        n_in = x.shape[ax]
        r = _ratio(n_in, n_out, sc, align_corners)
        if mode == "nearest":
            x = _nearest(x, ax, n_in, n_out, r)
        elif mode == "bicubic":
            x = _cubic(x, ax, n_in, n_out, r, align_corners)
        else:
            x = _linear(x, ax, n_in, n_out, r, align_mode == 0 and not align_corners)
    return x


@op("_nn_resize", namespaces=(), method=None)
def _resize(x, out_size, scales, mode, align_corners, align_mode, channel_last):
    """Half-precision inputs resize in float32 and round once, as Paddle's kernels compute;
    uint8 in bilinear and trilinear mode too, truncated back (Paddle's 1-D linear kernel keeps
    its weights in uint8, so that one stays in uint8 here as well)."""
    _check_dtype(x, mode)
    args = (out_size, scales, mode, align_corners, align_mode, channel_last)
    dtype = x.dtype
    if mode in ("bilinear", "trilinear") and dtype == jnp.uint8:
        axes = spatial_axes(x, channel_last)
        half = align_mode == 0 and not align_corners
        taps = [
            _linear_taps(x.shape[a], n, _ratio(x.shape[a], n, sc, align_corners), half)
            for a, n, sc in zip(axes, out_size, scales)
        ]
        return _linear_corners(x.astype(jnp.float32), axes, taps).astype(dtype)
    if mode != "nearest" and dtype in _dt.HALF:
        return _resample(_dt.half_as_float32(x), *args).astype(dtype)
    return _resample(x, *args)


def _check_dtype(x, mode: str) -> None:
    """Paddle's CPU resize kernels take only some dtypes (bool and int8 nowhere, integers only
    in nearest mode, uint8 also in the linear modes): its RuntimeError for the others."""
    name = jnp.dtype(x.dtype).name
    if name not in _KERNEL_DTYPES[mode]:
        raise RuntimeError(
            f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) of kernel "
            f"`{mode}_interp` is not registered. Selected wrong DataType `{name}`. Paddle "
            f"support following DataTypes: {', '.join(_KERNEL_DTYPES[mode])}."
        )


def _static_list(v):
    if isinstance(v, Tensor):
        return [v.item()] if v.ndim == 0 else v.tolist()
    if isinstance(v, int | float):
        return v
    return [x.item() if isinstance(x, Tensor) else x for x in v]


def _size_list(size, nsp: int) -> list[int]:
    """``size`` (an int, a list of ints or 0-D Tensors, or a Tensor) as ``nsp`` ints."""
    size = _static_list(size)
    size = [size] * nsp if isinstance(size, int) else [int(s) for s in size]
    if len(size) != nsp:
        raise ValueError("The x and size should satisfy rank(x) - 2 == len(size).")
    return size


def _area(x: Tensor, size) -> Tensor:
    """Paddle's area mode: an adaptive average pool to ``size`` over the axes after the first
    two, whatever ``data_format`` says (Paddle's ignores it there, and ``align_corners``, and
    takes ``size`` over ``scale_factor``)."""
    if size is None:
        raise ValueError("output size can not be None in AREA mode")
    nsp = len(x.shape) - 2
    pool = (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[nsp - 1]
    return pool(x, _size_list(size, nsp))


@op("interpolate", amp="black_always", composite=True, **_F)
def interpolate(
    x: Tensor,
    size: int | Sequence[int] | None = None,
    scale_factor: float | Sequence[float] | None = None,
    mode: str = "nearest",
    align_corners: bool = False,
    align_mode: int = 0,
    data_format: str | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resize the spatial axes of x to ``size`` or by ``scale_factor``."""
    mode = mode.lower()
    if mode not in _MODES:
        raise ValueError(
            "The 'resample' of image_resize can only be 'area', 'linear', "
            "'bilinear', 'trilinear',  'bicubic' or 'nearest' currently."
        )
    nd = len(x.shape)
    if nd not in _NDIM[mode]:
        raise ValueError(_NDIM_ERROR[mode].format(nd=nd))
    if size is None and scale_factor is None:
        raise ValueError("One of size and scale_factor must not be None.")
    if mode == "area":
        if align_mode not in (0, 1):
            raise ValueError("align_mode can only be 0 or 1")
        return _area(x, size)
    if size is not None and scale_factor is not None:
        raise ValueError("Only one of size or scale_factor should be defined.")
    if align_corners and mode in ("nearest", "area"):
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear"
        )
    if align_mode not in (0, 1):
        raise ValueError("align_mode can only be 0 or 1")
    fmts = _FORMATS[nd]
    if data_format is None:
        data_format = fmts[0]
    if data_format not in fmts:
        raise ValueError(
            f"Got wrong value for param `data_format`: {data_format} received but "
            f"only `{fmts[0]}` or `{fmts[1]}` supported for {nd}-D input."
        )
    channel_last = data_format == fmts[1]
    nsp = nd - 2
    spatial = list(x.shape[1 : 1 + nsp]) if channel_last else list(x.shape[2:])
    first = 1 if channel_last else 2
    for a, n in enumerate(spatial, first):
        if n == 0:
            raise ValueError(
                "(InvalidArgument) The shape of input(x) should be larger than 0, but received "
                f"shape[{a}] is 0"
            )
    if size is not None:
        size = _size_list(size, nsp)
        if any(s <= 0 for s in size):
            raise AssertionError(
                f"Each dimension size given in out_shape must be greater than 0, but received "
                f"size {size}."
            )
        scales = [None] * nsp
    else:
        sf = _static_list(scale_factor)
        sf = [float(sf)] * nsp if isinstance(sf, int | float) else [float(s) for s in sf]
        if len(sf) != nsp:
            raise ValueError(
                "The x and scale_factor should satisfy rank(x) - 2 == len(scale_factor)."
            )
        if any(s <= 0 for s in sf):
            raise ValueError("Attr(scale) should be greater than zero.")
        size = [int(n * s) for n, s in zip(spatial, sf)]
        scales = [None] * nsp if recompute_scale_factor else sf
    return _resize(
        x, tuple(size), tuple(scales), mode, bool(align_corners), int(align_mode), channel_last
    )


@op("upsample", amp="black_always", composite=True, **_F)
def upsample(
    x: Tensor,
    size: int | Sequence[int] | None = None,
    scale_factor: float | Sequence[float] | None = None,
    mode: str = "nearest",
    align_corners: bool = False,
    align_mode: int = 0,
    data_format: str | None = None,
) -> Tensor:
    """Same as ``interpolate``."""
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)
