"""paddle.nn.functional pooling: max/avg pool 1d/2d/3d (padding, ceil_mode, exclusive,
return_mask) and adaptive avg/max pools.

Window geometry is static, so divisors and window index tables are numpy constants built at
trace time. Max pooling without a mask over windows that do not overlap is a maximum over the
kernel's taps with a custom gradient to the first maximum of each window, like Paddle's, and
average pooling over them a sum of the taps; other windows use ``lax.reduce_window``, whose
max gradient does the same; max pooling with a mask gathers each window and takes the argmax,
so values, indices and gradients agree."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as _dt
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._conv import channel_last, ntuple, parse_padding, same_pads
from ._conv_cpu import place_tap, tap_windows

_F = dict(namespaces=("paddle.nn.functional",), method=None)


def _to_cf(x, cl):
    """channel-last -> channel-first."""
    return jnp.moveaxis(x, -1, 1) if cl else x


def _from_cf(x, cl):
    return jnp.moveaxis(x, 1, -1) if cl else x


def _geometry(spatial, kernel, stride, padding, ceil_mode, nsp, cl):
    """-> (kernel, stride, pads ((lo, hi) incl. the ceil-mode extension), out sizes, extra)."""
    k = ntuple(kernel, nsp, "kernel_size")
    s = k if stride is None else ntuple(stride, nsp, "stride")
    if any(v <= 0 for v in s):
        raise ValueError(
            f"(InvalidArgument) The stride of PoolOutputSize shall not be 0, but received {min(s)}."
        )
    pads = parse_padding(padding, nsp, cl)
    if pads == "SAME":
        pads = same_pads(spatial, k, s)
        ceil_mode = False
    elif pads == "VALID":
        if ceil_mode:
            raise ValueError(
                'When Attr(padding) is "VALID", Attr(ceil_mode) must be False. Received '
                f"ceil_mode: {ceil_mode}."
            )
        pads = ((0, 0),) * nsp
    out, extra = [], []
    for n, kk, ss, (lo, hi) in zip(spatial, k, s, pads):
        # Paddle's size: (n + pads - k [+ s - 1]) / s + 1 in C integer division (toward zero),
        # so a kernel up to s - 1 larger than the padded input still gives one clipped window
        span = n + lo + hi - kk + (ss - 1 if ceil_mode else 0)
        o = (span // ss if span >= 0 else -(-span // ss)) + 1
        if o < 0:
            raise ValueError(
                f"the output size must be greater than or equal to 0. But received: output_size "
                f"= {o} due to the settings of input_size({n}), padding({lo},{hi}), "
                f"k_size({kk}) and stride({ss})."
            )
        out.append(o)
        extra.append(max((o - 1) * ss + kk - (n + lo + hi), 0))
    return k, s, pads, out, extra


def _window_counts(spatial, k, s, pads, extra, include_pad):
    """Divisor per output position: valid elements (or elements of the padded input)."""
    ones = np.ones(spatial, np.float32)
    if include_pad:
        ones = np.pad(ones, [(lo, hi) for lo, hi in pads], constant_values=1.0)
        ones = np.pad(ones, [(0, e) for e in extra])
    else:
        ones = np.pad(ones, [(lo, hi + e) for (lo, hi), e in zip(pads, extra)])
    win = np.lib.stride_tricks.sliding_window_view(ones, tuple(k))
    win = win[tuple(slice(None, None, ss) for ss in s)]
    return win.sum(axis=tuple(range(-len(k), 0)))


def _window_table(spatial, windows):
    """Flat input indices for each output window (sentinel = prod(spatial) for padding).
    windows: per output position (in C order), a list per axis of the input indices it covers."""
    sentinel = math.prod(spatial)
    rows = []
    for axes in windows:
        idx = []
        for pos in itertools.product(*axes):
            if all(0 <= p < n for p, n in zip(pos, spatial)):
                idx.append(int(np.ravel_multi_index(pos, spatial)))
            else:
                idx.append(sentinel)
        rows.append(idx)
    width = max(len(r) for r in rows)
    return np.array([r + [sentinel] * (width - len(r)) for r in rows], np.int64)


def _gather_max(x, table, out_sizes):
    """x [N, C, *spatial] -> (max, flat argmax index) per window of ``table``."""
    n, c = x.shape[:2]
    flat = x.reshape(n, c, math.prod(x.shape[2:]))  # not -1: an empty batch has no size to infer
    neg = jnp.full((n, c, 1), jnp.finfo(x.dtype).min, x.dtype)
    patches = jnp.take(jnp.concatenate([flat, neg], axis=-1), table, axis=-1)
    arg = jnp.argmax(patches, axis=-1)
    val = jnp.take_along_axis(patches, arg[..., None], axis=-1)[..., 0]
    mask = jnp.asarray(table)[jnp.arange(table.shape[0]), arg].astype(jnp.int32)
    shape = (n, c, *out_sizes)
    return val.reshape(shape), mask.reshape(shape)


# Max pooling over windows that do not overlap (stride >= kernel) of at most this many taps is
# a max of strided windows with a first-maximum custom gradient (``_max_taps``): XLA's
# reduce_window and its select-and-scatter gradient are slower there on CPU (2x2 [8,64,32,32],
# eager forward + backward: 4.3 -> 1.4 ms, Paddle 2.1; the VJP program alone 2.5-2.9 -> 1.3-1.4
# ms). Overlapping windows keep reduce_window: there XLA fuses the whole gradient into one loop
# that recomputes each window's maximum per tap, and the taps form measured no faster (3x3 s2:
# 4.0 vs 3.8 ms). Average pooling over such windows is a sum of the same windows (its gradient
# JAX's: each window's cotangent padded back into place): 2x2 [8,64,32,32] eager forward +
# backward 2.2-2.6 -> 0.56-0.66 ms (Paddle 1.8); inside Paddle's exported misc program, where
# XLA ran the reduce_window as a YNNPACK call (~25 us on a [16,4,12,12] map), the sum fuses into
# its neighbours.
_MAX_TAPS = 27


@functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def _max_taps(x, k, s, pads):
    """Max pooling of ``x`` [N, C, *spatial] padded with -inf by ``pads``: the maximum over
    the kernel's taps; its gradient goes to the first maximum of each window in row-major
    order, as Paddle's (and as reduce_window's)."""
    return _max_taps_fwd(x, k, s, pads)[0]


def _disjoint_taps(k, s) -> bool:
    """Whether windows of kernel ``k`` and stride ``s`` are pooled tap by tap: they do not
    overlap, and they have at most ``_MAX_TAPS`` taps."""
    return math.prod(k) <= _MAX_TAPS and all(ss >= kk for ss, kk in zip(s, k))


def _windows(x, k, s, pads, fill=-np.inf):
    return tap_windows(x, k, s, pads, (1,) * len(k), False, fill=fill)


def _fold_taps(x, k, s, pads, combine, fill):
    """``combine`` over the kernel's taps, in row-major order, of ``x`` padded with ``fill``."""
    y = None
    for _, window in _windows(x, k, s, pads, fill):
        y = window if y is None else combine(y, window)
    return y


def _max_taps_fwd(x, k, s, pads):
    y = _fold_taps(x, k, s, pads, jnp.maximum, -np.inf)
    return y, (x, y)


def _max_taps_bwd(k, s, pads, res, g):
    x, y = res
    axes = range(2, x.ndim)
    padded = [n + lo + hi for n, (lo, hi) in zip(x.shape[2:], pads)]
    taken = dx = None
    for tap, window in _windows(x, k, s, pads):
        hit = window == y
        if taken is not None:
            hit = hit & ~taken
        taken = hit if taken is None else taken | hit
        part = jnp.where(hit, g, jnp.zeros((), g.dtype))
        part = place_tap(part, tap, axes, s, (1,) * len(k), [0] * len(k), padded)
        dx = part if dx is None else dx + part
    crop = (slice(None), slice(None), *(slice(lo, lo + n) for (lo, _), n in zip(pads, x.shape[2:])))
    return (dx[crop],)


_max_taps.defvjp(_max_taps_fwd, _max_taps_bwd)


def _full_pads(pads, extra) -> tuple:
    """Each axis's padding with ceil_mode's extra cells after it."""
    return tuple((lo, hi + e) for (lo, hi), e in zip(pads, extra))


def _window_max(x, k, s, pads):
    """The maximum of each window of ``x`` [N, C, *spatial] padded with -inf by ``pads``: tap by
    tap where the windows do not overlap (``_disjoint_taps``), else ``reduce_window``."""
    if _disjoint_taps(k, s):
        return _max_taps(x, tuple(k), tuple(s), tuple(pads))
    window = ((1, 1) + tuple(k), (1, 1) + tuple(s), ((0, 0), (0, 0)) + tuple(pads))
    return jax.lax.reduce_window(x, np.array(-np.inf, x.dtype), jax.lax.max, *window)


def _window_sum(x, k, s, pads):
    """The sum of each window of ``x`` [N, C, *spatial] padded with 0 by ``pads``: a sum of
    strided windows where they do not overlap (see ``_MAX_TAPS``), else ``reduce_window``."""
    if _disjoint_taps(k, s):
        return _fold_taps(x, k, s, pads, jnp.add, 0)
    window = ((1, 1) + tuple(k), (1, 1) + tuple(s), ((0, 0), (0, 0)) + tuple(pads))
    return jax.lax.reduce_window(x, np.zeros((), x.dtype), jax.lax.add, *window)


def check_pool_input(x, nsp: int, name: str) -> None:
    """The input of a {nsp}-D pool is an {nsp + 2}-D tensor."""
    if x.ndim != nsp + 2:
        raise ValueError(
            f"The input x of {name} should be a {nsp + 2}-D Tensor, but received a {x.ndim}-D "
            f"Tensor of shape {list(x.shape)}"
        )


def _check_float(x, nsp: int) -> None:
    """Paddle's average-pool kernels (``pool2d`` for 1-D and 2-D, ``pool3d``) take floats only."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise RuntimeError(
            f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {x.dtype}) of kernel "
            f"`pool{max(nsp, 2)}d` is not registered. Selected wrong DataType `{x.dtype}`. "
            "Paddle support following DataTypes: float64, float16, float32."
        )


def _empty(x, out):
    return jnp.zeros((*x.shape[:2], *out), x.dtype)


def _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, nsp):
    check_pool_input(x, nsp, f"max_pool{nsp}d")
    cl = channel_last(data_format, nsp)
    if return_mask and cl:
        raise ValueError(
            "When setting return_mask to true, data_format must be set to NCHW in API:max_pool"
        )
    x = _to_cf(x, cl)
    spatial = x.shape[2:]
    k, s, pads, out, extra = _geometry(spatial, kernel_size, stride, padding, ceil_mode, nsp, cl)
    if 0 in out:
        y = _empty(x, out)
        return (y, y.astype(jnp.int32)) if return_mask else _from_cf(y, cl)
    if not return_mask:
        y = _window_max(x, k, s, _full_pads(pads, extra))
        # Paddle starts each window at -FLT_MAX: windows of padding only (ceil_mode) read that
        y = jnp.maximum(y, jnp.finfo(x.dtype).min)
        return _from_cf(y, cl)
    windows = [
        [range(o * ss - lo, o * ss - lo + kk) for o, ss, (lo, _), kk in zip(pos, s, pads, k)]
        for pos in itertools.product(*[range(o) for o in out])
    ]
    return _gather_max(x, _window_table(spatial, windows), out)


def _avg_pool(
    x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, nsp
):
    check_pool_input(x, nsp, f"avg_pool{nsp}d")
    _check_float(x, nsp)
    cl = channel_last(data_format, nsp)
    x = _to_cf(x, cl)
    spatial = x.shape[2:]
    k, s, pads, out, extra = _geometry(spatial, kernel_size, stride, padding, ceil_mode, nsp, cl)
    if 0 in out:
        return _from_cf(_empty(x, out), cl)
    dtype = x.dtype
    x = _dt.half_as_float32(x)  # averaged in float32 and rounded once, as Paddle's kernels
    y = _window_sum(x, k, s, _full_pads(pads, extra))
    if divisor_override:
        y = y / jnp.asarray(divisor_override, x.dtype)
    else:
        # a window of padding only (exclusive) averages nothing: 0 / 0 = nan, as in Paddle
        div = _window_counts(spatial, k, s, pads, extra, include_pad=not exclusive)
        y = y / jnp.asarray(div, x.dtype)
    return _from_cf(y.astype(dtype), cl)


_POOL = dict(tensors=("x",), **_F)
_COMPOSITE = dict(composite=True, **_F)


@op("_nn_max_pool", namespaces=(), method=None)
def _max_pool_op(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, nsp):
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, nsp)


@op("_nn_adaptive_max_pool", namespaces=(), method=None)
def _adaptive_max_op(x, output_size, return_mask, nsp):
    return _adaptive_max(x, output_size, return_mask, nsp)


@op("max_pool1d", **_COMPOSITE)
def max_pool1d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    return_mask: bool = False,
    ceil_mode: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """Max over sliding windows of an [N, C, L] input (and the flat argmax with return_mask)."""
    return _max_pool_op(x, kernel_size, stride, padding, bool(return_mask), ceil_mode, "NCL", 1)


@op("max_pool2d", **_COMPOSITE)
def max_pool2d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    return_mask: bool = False,
    ceil_mode: bool = False,
    data_format: str = "NCHW",
) -> Tensor | tuple[Tensor, Tensor]:
    """Max over sliding windows of H, W (mask: flat index into H*W, int32)."""
    return _max_pool_op(
        x, kernel_size, stride, padding, bool(return_mask), ceil_mode, data_format, 2
    )


@op("max_pool3d", **_COMPOSITE)
def max_pool3d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    return_mask: bool = False,
    ceil_mode: bool = False,
    data_format: str = "NCDHW",
) -> Tensor | tuple[Tensor, Tensor]:
    """Max over sliding windows of D, H, W."""
    return _max_pool_op(
        x, kernel_size, stride, padding, bool(return_mask), ceil_mode, data_format, 3
    )


@op("avg_pool1d", **_POOL)
def avg_pool1d(
    x: jax.Array,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    exclusive: bool = True,
    ceil_mode: bool = False,
) -> jax.Array:
    """Mean over sliding windows of an [N, C, L] input; ``exclusive`` skips padding."""
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive, None, "NCL", 1)


@op("avg_pool2d", **_POOL)
def avg_pool2d(
    x: jax.Array,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    ceil_mode: bool = False,
    exclusive: bool = True,
    divisor_override: int | None = None,
    data_format: str = "NCHW",
) -> jax.Array:
    """Mean over sliding windows of H, W; ``exclusive`` divides by the unpadded count."""
    return _avg_pool(
        x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, 2
    )


@op("avg_pool3d", **_POOL)
def avg_pool3d(
    x: jax.Array,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    ceil_mode: bool = False,
    exclusive: bool = True,
    divisor_override: int | None = None,
    data_format: str = "NCDHW",
) -> jax.Array:
    """Mean over sliding windows of D, H, W."""
    return _avg_pool(
        x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, 3
    )


# -- adaptive pools ---------------------------------------------------------------------------
def _bins(n_in, n_out):
    return [(i * n_in // n_out, -(-(i + 1) * n_in // n_out)) for i in range(n_out)]


def _out_sizes(output_size, spatial, nsp):
    if isinstance(output_size, int):
        return [output_size] * nsp
    sizes = list(output_size)
    if len(sizes) == 1:
        sizes = sizes * nsp
    if len(sizes) != nsp:
        raise ValueError(f"output_size should be an int or a list of {nsp} ints, got {sizes}")
    return [n if o is None else int(o) for o, n in zip(sizes, spatial)]


# Equal adaptive bins of up to this many cells are summed tap by tap, larger ones through a
# reshape: forward + backward of [8,64,32,32] (2-core CPU) 2x2 bins 0.51 vs 1.23 ms, 4x4 2.49 vs
# 0.76 ms, 8x8 12.9 vs 0.62 ms; [2,32,48,48] 3x3 0.87 vs 0.38 ms (each tap's gradient is a pad).
_MAX_BIN_TAPS = 4


def _adaptive_avg(x, output_size, nsp, cl):
    check_pool_input(x, nsp, f"adaptive_avg_pool{nsp}d")
    _check_float(x, nsp)
    dtype = x.dtype
    x = _dt.half_as_float32(_to_cf(x, cl))
    out = _out_sizes(output_size, x.shape[2:], nsp)
    if all(o > 0 and n % o == 0 for n, o in zip(x.shape[2:], out)):
        # equal bins (a global pool, 8 -> 4): each bin's sum over its area, as Paddle divides
        k = [n // o for n, o in zip(x.shape[2:], out)]
        if math.prod(k) <= _MAX_BIN_TAPS:
            y = _fold_taps(x, k, k, [(0, 0)] * nsp, jnp.add, 0)
        elif set(out) == {1}:
            y = x.sum(axis=tuple(range(2, 2 + nsp)), keepdims=True)
        else:
            split = [d for o, kk in zip(out, k) for d in (o, kk)]
            y = x.reshape(*x.shape[:2], *split).sum(axis=tuple(range(3, 3 + 2 * nsp, 2)))
        return _from_cf((y / jnp.asarray(math.prod(k), x.dtype)).astype(dtype), cl)
    for ax, o in enumerate(out, start=2):
        n = x.shape[ax]
        m = np.zeros((o, n), np.float32)
        for i, (s, e) in enumerate(_bins(n, o)):
            m[i, s:e] = 1.0 / (e - s)
        x = jnp.moveaxis(jnp.tensordot(x, jnp.asarray(m, x.dtype), axes=([ax], [1])), -1, ax)
    return _from_cf(x.astype(dtype), cl)


def _adaptive_max(x, output_size, return_mask, nsp):
    check_pool_input(x, nsp, f"adaptive_max_pool{nsp}d")
    spatial = x.shape[2:]
    out = _out_sizes(output_size, spatial, nsp)
    bins = [_bins(n, o) for n, o in zip(spatial, out)]
    windows = [
        [range(*b[i]) for b, i in zip(bins, pos)]
        for pos in itertools.product(*[range(o) for o in out])
    ]
    val, mask = _gather_max(x, _window_table(spatial, windows), out)
    return (val, mask) if return_mask else val


@op("adaptive_avg_pool1d", namespaces=("paddle.nn.functional", "paddle"), method=None)
def adaptive_avg_pool1d(
    x: jax.Array, output_size: int | Sequence[int | None], name: str | None = None
) -> jax.Array:
    """Mean over ``output_size`` adaptive bins of L."""
    return _adaptive_avg(x, output_size, 1, False)


@op("adaptive_avg_pool2d", **_POOL)
def adaptive_avg_pool2d(
    x: jax.Array, output_size: int | Sequence[int | None], data_format: str = "NCHW"
) -> jax.Array:
    """Mean over adaptive bins of H, W (None keeps that size)."""
    return _adaptive_avg(x, output_size, 2, channel_last(data_format, 2))


@op("adaptive_avg_pool3d", **_POOL)
def adaptive_avg_pool3d(
    x: jax.Array, output_size: int | Sequence[int | None], data_format: str = "NCDHW"
) -> jax.Array:
    """Mean over adaptive bins of D, H, W."""
    return _adaptive_avg(x, output_size, 3, channel_last(data_format, 3))


@op("adaptive_max_pool1d", **_COMPOSITE)
def adaptive_max_pool1d(
    x: Tensor, output_size: int | Sequence[int | None], return_mask: bool = False
) -> Tensor | tuple[Tensor, Tensor]:
    """Max over adaptive bins of L."""
    return _adaptive_max_op(x, output_size, bool(return_mask), 1)


@op("adaptive_max_pool2d", **_COMPOSITE)
def adaptive_max_pool2d(
    x: Tensor, output_size: int | Sequence[int | None], return_mask: bool = False
) -> Tensor | tuple[Tensor, Tensor]:
    """Max over adaptive bins of H, W."""
    return _adaptive_max_op(x, output_size, bool(return_mask), 2)


@op("adaptive_max_pool3d", **_COMPOSITE)
def adaptive_max_pool3d(
    x: Tensor, output_size: int | Sequence[int | None], return_mask: bool = False
) -> Tensor | tuple[Tensor, Tensor]:
    """Max over adaptive bins of D, H, W."""
    return _adaptive_max_op(x, output_size, bool(return_mask), 3)


# -- Lp pooling and max unpooling -------------------------------------------------------------
def _lp_pool(x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, nsp):
    cl = channel_last(data_format, nsp)
    p = float(norm_type)
    if p == 0:
        raise ValueError("`norm_type` cannot be 0.")
    if p == float("inf"):
        return _max_pool(x, kernel_size, stride, padding, False, ceil_mode, data_format, nsp)
    xc = _to_cf(x, cl)
    k, s, pads, out, extra = _geometry(
        xc.shape[2:], kernel_size, stride, padding, ceil_mode, nsp, cl
    )
    y = _window_sum(xc**p, k, s, _full_pads(pads, extra))
    y = jnp.sign(y) * jnp.maximum(jnp.abs(y), 0) ** (1.0 / p)
    return _from_cf(y, cl)


@op("lp_pool1d", **_POOL)
def lp_pool1d(
    x: jax.Array,
    norm_type: float,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    ceil_mode: bool = False,
    data_format: str = "NCL",
) -> jax.Array:
    """(sum of x^p over each window of L)^(1/p)."""
    return _lp_pool(x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, 1)


@op("lp_pool2d", **_POOL)
def lp_pool2d(
    x: jax.Array,
    norm_type: float,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    ceil_mode: bool = False,
    data_format: str = "NCHW",
) -> jax.Array:
    """(sum of x^p over each window of H, W)^(1/p)."""
    return _lp_pool(x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, 2)


def _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, nsp):
    cl = channel_last(data_format, nsp)
    if cl:
        raise ValueError(f"max_unpool supports channel-first data only, got {data_format}")
    k = ntuple(kernel_size, nsp, "kernel_size")
    s = k if stride is None else ntuple(stride, nsp, "stride")
    pads = parse_padding(padding, nsp, cl)
    pads = ((0, 0),) * nsp if isinstance(pads, str) else pads
    spatial = x.shape[2:]
    default = [(n - 1) * ss - lo - hi + kk for n, ss, (lo, hi), kk in zip(spatial, s, pads, k)]
    if output_size is None:
        out = default
    else:
        out = [int(o) for o in output_size][-nsp:]
        for axis, (o, d, ss) in enumerate(zip(out, default, s)):
            if not d - ss < o < d + ss:  # (Paddle 3.3.1's 1-D check rejects every output_size)
                raise ValueError(
                    f'invalid output_size "{out}" (dim {axis} must be between {d - ss} and '
                    f"{d + ss})"
                )
    n, c = x.shape[:2]
    flat = jnp.zeros((n, c, math.prod(out)), x.dtype)
    idx = indices.reshape(n, c, -1).astype(jnp.int32)
    flat = flat.at[jnp.arange(n)[:, None, None], jnp.arange(c)[None, :, None], idx].set(
        x.reshape(n, c, -1)
    )
    return flat.reshape(n, c, *out)


_UNPOOL = dict(tensors=("x", "indices"), **_F)


@op("max_unpool1d", **_UNPOOL)
def max_unpool1d(
    x: jax.Array,
    indices: jax.Array,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    data_format: str = "NCL",
    output_size: int | Sequence[int] | None = None,
) -> jax.Array:
    """Place x at the argmax ``indices`` of max_pool1d, zeros elsewhere."""
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 1)


@op("max_unpool2d", **_UNPOOL)
def max_unpool2d(
    x: jax.Array,
    indices: jax.Array,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    data_format: str = "NCHW",
    output_size: int | Sequence[int] | None = None,
) -> jax.Array:
    """Place x at the argmax ``indices`` of max_pool2d, zeros elsewhere."""
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 2)


@op("max_unpool3d", **_UNPOOL)
def max_unpool3d(
    x: jax.Array,
    indices: jax.Array,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: int | str | Sequence[int] = 0,
    data_format: str = "NCDHW",
    output_size: int | Sequence[int] | None = None,
) -> jax.Array:
    """Place x at the argmax ``indices`` of max_pool3d, zeros elsewhere."""
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 3)
