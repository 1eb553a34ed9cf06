"""Region-of-interest pooling: roi_align (bilinear samples averaged per bin), roi_pool (max per
integer bin) and psroi_pool (position-sensitive average per integer bin), with their Layers.

``boxes`` [R, 4] are (x1, y1, x2, y2); ``boxes_num`` [N] counts the boxes of each image, so box
r belongs to the image whose running count first exceeds r. Every op is vectorized over boxes:
a bin's samples or pixels along y and along x are independent, so each op builds per-box weight
matrices over rows [R, bins, H] and columns [R, bins, W] and contracts them with the box's
feature map. Gradients flow to ``x`` only (boxes get none, as in Paddle).
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.tensor import Tensor  # noqa: F401  (the public signatures name it)
from ...nn import Layer
from ._common import (
    c_round,
    concrete,
    ieee,
    pair,
    require_tensors,
    retrieve_error,
    vision_op,
)

__all__ = ["roi_align", "roi_pool", "psroi_pool", "RoIAlign", "RoIPool", "PSRoIPool"]

_ROI = ("x", "boxes", "boxes_num")
_HIGHEST = jax.lax.Precision.HIGHEST


def _check_boxes_num(kw, name: str) -> None:
    x, boxes, num = kw["x"], kw["boxes"], kw["boxes_num"]
    if num is None:
        raise AssertionError("boxes_num should not be None in dygraph mode.")
    require_tensors(kw, _ROI, name)
    if len(x.shape) == 4 and len(num.shape) == 1 and num.shape[0] != x.shape[0]:
        raise ValueError(
            f"(InvalidArgument) The batch size of rois and the batch size of images  must be "
            f"the same. But received the batch size of rois is {num.shape[0]}, and the batch "
            f"size of images is {x.shape[0]}"
        )
    n = concrete(num)
    if n is not None and int(n.sum()) != boxes.shape[0]:
        raise ValueError(
            f"(InvalidArgument) the rois_num from input and RoisNum must be the same: boxes_num "
            f"sums to {int(n.sum())} but boxes has {boxes.shape[0]} rows"
        )


def _check_inputs(x, boxes, boxes_num, op_name: str, int32_num: bool) -> None:
    if x.ndim != 4:
        raise ValueError(
            f"(InvalidArgument) The format of Input(x) in {op_name} is NCHW. And the rank of "
            f"input must be 4. But received rank = {x.ndim}"
        )
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(
            f"(InvalidArgument) The second dimension of Input(boxes) should be 4. But received "
            f"the dimension = {boxes.shape[-1] if boxes.ndim else 0}"
        )
    if boxes.dtype != x.dtype:
        raise retrieve_error(x.dtype, boxes.dtype)
    if int32_num and boxes_num.dtype != jnp.int32:
        raise retrieve_error(jnp.int32, boxes_num.dtype)
    if boxes_num.dtype not in (jnp.int32, jnp.int64):
        raise retrieve_error(jnp.int32, boxes_num.dtype)


def _batch_ids(boxes_num, n_rois: int, n_batch: int):
    """Image index of each box from the per-image counts."""
    ends = jnp.cumsum(boxes_num.astype(jnp.int64))
    ids = jnp.searchsorted(ends, jnp.arange(n_rois, dtype=jnp.int64), side="right")
    return jnp.clip(ids, 0, n_batch - 1)


def _rows_of_boxes(weights, bid, x):
    """sum_h weights[r, p, h] * x[bid[r], :, h, :] -> [R, P, C, W] as one matrix product over
    (image, row), the image picked by a one-hot factor: no [R, C, H, W] copy of the features."""
    r, p, h = weights.shape
    n, c, _, w = x.shape
    pick = (bid[:, None] == jnp.arange(n)).astype(x.dtype)  # [R, N]
    wb = (weights[:, :, None, :] * pick[:, None, :, None]).reshape(r * p, n * h)
    xs = x.transpose(0, 2, 1, 3).reshape(n * h, c * w)
    return jnp.matmul(wb, xs, precision=_HIGHEST).reshape(r, p, c, w)


# -- roi_align ----------------------------------------------------------------------------------
def _first_inside(start, bin_size, grid, p):
    """Per box and bin: the index of a sample at or before the first one at y >= -1 (sample i
    of bin p sits at start + bin_size * (p + (i + 0.5) / grid)); float64, one index early so
    rounding never skips a sample."""
    f64 = jnp.float64
    s, b = start.astype(f64)[:, None, None], bin_size.astype(f64)[:, None, None]
    g = jnp.maximum(grid, 1).astype(f64)[:, None, None]
    i = jnp.floor(jnp.clip(((-1.0 - s) / b - p.astype(f64)) * g - 0.5, -1.0, 2.0**40)) - 1
    return jnp.where(jnp.isfinite(i), jnp.maximum(i, 0), 0).astype(jnp.int64)


def _sample_weights(start, size, pooled: int, length: int, sampling_ratio: int, dt, grad=False):
    """Per box, bin and pixel along one axis: the summed bilinear weights of the bin's samples
    [R, pooled, length] and the number of samples per bin [R]. ``grad``: place the samples with
    the arithmetic of Paddle's gradient kernel (start + p * bin + (i + 0.5) * bin / grid).

    A sample at ``y`` outside [-1, length] counts in the average but adds nothing; otherwise it is
    clamped into [0, length - 1] and split between its two neighbouring pixels. With the adaptive
    grid (``sampling_ratio <= 0``: ceil(size / pooled) samples) the samples are at most one pixel
    apart, so at most 2 * length + 3 of them fall inside; only those are enumerated, from the first
    one that can be inside, so the work is bounded by the feature map, not by the box."""
    bin_size = ieee(jnp.divide, size, jnp.asarray(pooled, dt))
    p = jnp.arange(pooled, dtype=dt)[None, :, None]
    if sampling_ratio > 0:
        grid = jnp.full(size.shape, sampling_ratio, jnp.int64)
        first, n = jnp.zeros((size.shape[0], pooled, 1), jnp.int64), sampling_ratio
    else:
        grid = jnp.ceil(bin_size).astype(jnp.int64)
        first, n = _first_inside(start, bin_size, grid, p), 2 * length + 5
    idx = first + jnp.arange(n, dtype=jnp.int64)  # [R, pooled, n]
    g = grid[:, None, None]
    half = (idx.astype(jnp.float32) + np.float32(0.5)).astype(dt)
    bins, start = bin_size[:, None, None], start[:, None, None]
    if grad:
        frac = ieee(jnp.divide, ieee(jnp.multiply, half, bins), g.astype(dt))
        y = ieee(jnp.add, ieee(jnp.add, start, ieee(jnp.multiply, p, bins)), frac)
    else:
        frac = ieee(jnp.divide, half, g.astype(dt))
        y = ieee(jnp.add, start, ieee(jnp.multiply, bins, ieee(jnp.add, p, frac)))
    inside = (y >= -1.0) & (y <= length) & (idx < g)
    y = jnp.where(y <= 0, jnp.zeros((), dt), y)
    low = jnp.floor(y).astype(jnp.int64)
    edge = low >= length - 1
    low = jnp.where(edge, length - 1, low)
    high = jnp.where(edge, low, low + 1)
    y = jnp.where(edge, low.astype(dt), y)
    w_low = jnp.where(inside, high.astype(dt) - y, 0)
    w_high = jnp.where(inside, 1 - (high.astype(dt) - y), 0)
    pix = jnp.arange(length)

    def spread(i, wt):
        return (i[..., None] == pix).astype(dt) * wt[..., None]

    return (spread(low, w_low) + spread(high, w_high)).sum(axis=2), grid


@vision_op("roi_align", _ROI, no_grad=("boxes", "boxes_num"), check=_check_boxes_num)
def roi_align(
    x: jax.Array,
    boxes: jax.Array,
    boxes_num: jax.Array,
    output_size: int | Sequence[int],
    spatial_scale: float = 1.0,
    sampling_ratio: int = -1,
    aligned: bool = True,
) -> jax.Array:
    """RoI Align (Mask R-CNN): each of the output_size bins of a box averages bilinear samples
    of ``x`` [N, C, H, W] on a regular grid; ``aligned`` shifts boxes by -0.5 pixel.
    Returns [R, C, out_h, out_w]."""
    ph, pw = pair(output_size)
    _check_inputs(x, boxes, boxes_num, "RoiAlignOp", int32_num=False)
    dt = x.dtype
    n, c, h, w = x.shape
    r = boxes.shape[0]
    if r == 0:
        return jnp.zeros((0, c, ph, pw), dt)
    bid = _batch_ids(boxes_num, r, n)
    b = ieee(jnp.multiply, boxes, jnp.asarray(np.float32(spatial_scale), dt))
    b = ieee(jnp.subtract, b, jnp.asarray(0.5 if aligned else 0, dt))
    rw, rh = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    one = jnp.ones((), dt)
    fw, fh = (rw, rh) if aligned else (jnp.maximum(rw, one), jnp.maximum(rh, one))
    wy, gh = _sample_weights(b[:, 1], fh, ph, h, sampling_ratio, dt)
    wx, gw = _sample_weights(b[:, 0], fw, pw, w, sampling_ratio, dt)
    # Paddle's gradient kernel clamps the box to at least 1 x 1 pixel even when aligned (its
    # forward does not) and places samples with its own arithmetic: the gradient follows it
    wy_g, gh_g = _sample_weights(b[:, 1], jnp.maximum(rh, one), ph, h, sampling_ratio, dt, True)
    wx_g, gw_g = _sample_weights(b[:, 0], jnp.maximum(rw, one), pw, w, sampling_ratio, dt, True)
    return _align(x, bid, (wy, wx, _inverse(gh, gw, dt)), (wy_g, wx_g, _inverse(gh_g, gw_g, dt)))


def _inverse(gh, gw, dt):
    """1 / samples per bin, as Paddle multiplies by it (rounded to the data type)."""
    return (1.0 / (gh * gw).astype(jnp.float64)).astype(dt)


def _align_sum(x, bid, weights):
    wy, wx, inv = weights
    rows = _rows_of_boxes(wy, bid, x)  # [R, ph, C, W]
    out = jnp.einsum("rpcw,rqw->rcpq", rows, wx, precision=_HIGHEST)
    return out * inv[:, None, None, None]


@jax.custom_vjp
def _align(x, bid, weights, grad_weights):
    """roi_align's weighted sums of x; the gradient uses ``grad_weights``."""
    return _align_sum(x, bid, weights)


def _align_fwd(x, bid, weights, grad_weights):
    return _align_sum(x, bid, weights), (x, bid, grad_weights)


def _align_bwd(res, g):
    x, bid, grad_weights = res
    _, vjp = jax.vjp(lambda v: _align_sum(v, bid, grad_weights), x)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, grad_weights)
    return vjp(g)[0], None, zeros, zeros


_align.defvjp(_align_fwd, _align_bwd)


# -- roi_pool -----------------------------------------------------------------------------------
def _pool_bins(start, end, pooled: int, length: int):
    """[start, end) pixel range of each integer bin of roi_pool [R, pooled]."""
    size = jnp.maximum(end - start + 1, 1)
    bin_size = ieee(jnp.divide, size.astype(jnp.float32), np.float32(pooled))[:, None]
    p = jnp.arange(pooled, dtype=jnp.float32)
    lo = jnp.floor(ieee(jnp.multiply, p, bin_size)).astype(jnp.int64) + start[:, None]
    hi = jnp.ceil(ieee(jnp.multiply, p + 1, bin_size)).astype(jnp.int64) + start[:, None]
    return jnp.clip(lo, 0, length), jnp.clip(hi, 0, length)


def _in_bins(lo, hi, length: int):
    pix = jnp.arange(length)
    return (pix >= lo[..., None]) & (pix < hi[..., None])  # [R, pooled, length]


def _max_table(v):
    """Sparse table of v [..., L] along its last axis -> [..., K, L] maxima and first indices of
    the windows [i, i + 2**k) (windows past the end padded with -inf)."""
    length = v.shape[-1]
    vals = [v]
    idxs = [jnp.broadcast_to(jnp.arange(length, dtype=jnp.int32), v.shape)]
    for k in range(1, max(length, 1).bit_length()):
        s = 2 ** (k - 1)
        pad = [(0, 0)] * (v.ndim - 1) + [(0, s)]
        right_v = jnp.pad(vals[-1][..., s:], pad, constant_values=-jnp.inf)
        right_i = jnp.pad(idxs[-1][..., s:], pad)
        later = right_v > vals[-1]  # ties keep the left (first) maximum
        vals.append(jnp.where(later, right_v, vals[-1]))
        idxs.append(jnp.where(later, right_i, idxs[-1]))
    return jnp.stack(vals, -2), jnp.stack(idxs, -2)


def _window_max(x, bid, lo, hi):
    """Per box r and column bin q: the maximum over columns [lo, hi) of x[bid[r]] for every
    channel and row, and the first column holding it -> [R, Q, C, H] each. Two lookups in a
    sparse table of x (two windows of length 2**k cover any range), so the work does not grow
    with the bins' width."""
    n, c, h, w = x.shape
    vals, idxs = _max_table(x)  # [N, C, H, K, W]
    levels = vals.shape[3]
    vals = vals.transpose(0, 3, 4, 1, 2).reshape(n, levels * w, c, h)
    idxs = idxs.transpose(0, 3, 4, 1, 2).reshape(n, levels * w, c, h)
    size = jnp.maximum(hi - lo, 1)
    k = jnp.sum(size[..., None] >= 2 ** jnp.arange(levels), axis=-1) - 1
    first = k * w + jnp.clip(lo, 0, w - 1)
    second = k * w + jnp.clip(hi - 2**k, 0, w - 1)
    b = bid[:, None]
    v1, i1, v2, i2 = vals[b, first], idxs[b, first], vals[b, second], idxs[b, second]
    later = v2 > v1
    return jnp.where(later, v2, v1), jnp.where(later, i2, i1)


@vision_op("roi_pool", _ROI, no_grad=("boxes", "boxes_num"), check=_check_boxes_num)
def roi_pool(
    x: jax.Array,
    boxes: jax.Array,
    boxes_num: jax.Array,
    output_size: int | Sequence[int],
    spatial_scale: float = 1.0,
) -> jax.Array:
    """RoI max pooling (Fast R-CNN): box corners scaled and rounded to pixels, each bin the
    maximum of its pixels (0 for an empty bin); the gradient goes to the first maximum.
    ``boxes_num`` must be int32. Returns [R, C, out_h, out_w]."""
    ph, pw = pair(output_size)
    _check_inputs(x, boxes, boxes_num, "RoiPoolOp", int32_num=True)
    dt = x.dtype
    n, c, h, w = x.shape
    r = boxes.shape[0]
    if r == 0:
        return jnp.zeros((0, c, ph, pw), dt)
    bid = _batch_ids(boxes_num, r, n)
    scaled = ieee(jnp.multiply, boxes, jnp.asarray(np.float32(spatial_scale), dt))
    corners = c_round(scaled).astype(jnp.int64)
    hs, he = _pool_bins(corners[:, 1], corners[:, 3], ph, h)
    ws, we = _pool_bins(corners[:, 0], corners[:, 2], pw, w)
    xs = jax.lax.stop_gradient(x)
    col_max, col_at = _window_max(xs, bid, ws, we)  # [R, pw, C, H]
    rows = _in_bins(hs, he, h)[:, :, None, None, :]  # [R, ph, 1, 1, H]
    masked = jnp.where(rows, col_max[:, None], jnp.asarray(-jnp.inf, dt))  # [R, ph, pw, C, H]
    row_at = jnp.argmax(masked, axis=-1)  # the first row holding the bin's maximum
    col = jnp.take_along_axis(col_at[:, None], row_at[..., None], axis=-1)[..., 0]
    flat = (row_at * w + col).astype(jnp.int32).transpose(0, 3, 1, 2)  # [R, C, ph, pw]
    xf = x.reshape(n, c, h * w)
    out = xf[bid[:, None, None, None], jnp.arange(c)[None, :, None, None], flat]
    empty = (he <= hs)[:, :, None] | (we <= ws)[:, None, :]
    return jnp.where(empty[:, None], jnp.zeros((), dt), out)


# -- psroi_pool ---------------------------------------------------------------------------------
def _check_psroi(kw, name: str) -> None:
    x = kw["x"]
    ph, pw = pair(kw["output_size"])
    if len(x.shape) != 4:
        raise AssertionError("Input features with shape should be (N, C, H, W)")
    if ph * pw == 0:
        raise ValueError("output_size should not contain 0.")
    _check_boxes_num(kw, name)


def _ps_bins(start, end, pooled: int, length: int, dt):
    size = jnp.maximum(ieee(jnp.subtract, end, start), jnp.asarray(0.1, dt))
    bin_size = ieee(jnp.divide, size, jnp.asarray(pooled, dt))[:, None]
    p = jnp.arange(pooled, dtype=dt)
    lo = ieee(jnp.add, ieee(jnp.multiply, p, bin_size), start[:, None])
    hi = ieee(jnp.add, ieee(jnp.multiply, p + 1, bin_size), start[:, None])
    lo, hi = jnp.floor(lo).astype(jnp.int64), jnp.ceil(hi).astype(jnp.int64)
    return jnp.clip(lo, 0, length), jnp.clip(hi, 0, length)


@vision_op("psroi_pool", _ROI, no_grad=("boxes", "boxes_num"), check=_check_psroi)
def psroi_pool(
    x: jax.Array,
    boxes: jax.Array,
    boxes_num: jax.Array,
    output_size: int | Sequence[int],
    spatial_scale: float = 1.0,
) -> jax.Array:
    """Position-sensitive RoI average pooling (R-FCN): bin (i, j) of output channel k averages
    input channel (k * out_h + i) * out_w + j over its pixels. ``x`` has C = K * out_h * out_w
    channels; ``boxes_num`` must be int32. Returns [R, K, out_h, out_w]."""
    ph, pw = pair(output_size)
    n, c, h, w = x.shape
    oc = int(c / (ph * pw))
    if c != oc * ph * pw:
        raise ValueError(
            f"(InvalidArgument) the channel of X({c}) should be equal to the product of "
            f"output_channels({oc}), pooled_height({ph}) and pooled_width({pw})"
        )
    if oc <= 1:
        raise ValueError("(InvalidArgument) The pooled output channels must greater than 1")
    _check_inputs(x, boxes, boxes_num, "PsroiPoolOp", int32_num=True)
    dt = x.dtype
    r = boxes.shape[0]
    if r == 0:
        return jnp.zeros((0, oc, ph, pw), dt)
    bid = _batch_ids(boxes_num, r, n)
    scale = jnp.asarray(np.float32(spatial_scale), dt)
    rounded = c_round(boxes)
    lo = ieee(jnp.multiply, rounded[:, :2], scale)
    hi = ieee(jnp.multiply, rounded[:, 2:] + 1, scale)
    hs, he = _ps_bins(lo[:, 1], hi[:, 1], ph, h, dt)
    ws, we = _ps_bins(lo[:, 0], hi[:, 0], pw, w, dt)
    mh = _in_bins(hs, he, h).astype(dt)
    mw = _in_bins(ws, we, w).astype(dt)
    n_img = x.shape[0]
    pick = (bid[:, None] == jnp.arange(n_img)).astype(dt)  # [R, N]: no [R, C, H, W] copy
    rows = jnp.einsum(
        "rih,rn,ncijhw->rcijw", mh, pick, x.reshape(n_img, oc, ph, pw, h, w), precision=_HIGHEST
    )
    total = jnp.einsum("rcijw,rjw->rcij", rows, mw, precision=_HIGHEST)
    area = ((he - hs)[:, :, None] * (we - ws)[:, None, :]).astype(dt)
    empty = (he <= hs)[:, :, None] | (we <= ws)[:, None, :]
    return jnp.where(empty[:, None], jnp.zeros((), dt), total / jnp.where(empty, 1, area)[:, None])


# -- Layers -------------------------------------------------------------------------------------
class RoIAlign(Layer):
    """``roi_align`` as a Layer; ``aligned`` is a forward argument."""

    def __init__(self, output_size, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num, aligned: bool = True):
        return roi_align(
            x, boxes, boxes_num, self._output_size, self._spatial_scale, aligned=aligned
        )


class RoIPool(Layer):
    """``roi_pool`` as a Layer."""

    def __init__(self, output_size, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


class PSRoIPool(Layer):
    """``psroi_pool`` as a Layer."""

    def __init__(self, output_size, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return psroi_pool(x, boxes, boxes_num, self.output_size, self.spatial_scale)
