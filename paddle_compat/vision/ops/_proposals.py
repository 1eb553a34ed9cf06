"""Detection post-processing whose output sizes depend on the values: nms, matrix_nms,
generate_proposals (RPN) and distribute_fpn_proposals. Each reads its inputs on the host and
runs numpy in the inputs' dtype (float32 arithmetic rounds as in Paddle's kernels); inside
``paddle.jit.to_static`` they raise an error that names the op. Sorting by score is stable: where
Paddle's kernels use an unstable sort, boxes with equal scores may come out in another order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..._core.tensor import Tensor
from ._common import FLOATS, host, host_op, kernel_dtype, retrieve_error, to_tensor

__all__ = ["nms", "matrix_nms", "generate_proposals", "distribute_fpn_proposals"]


def _desc(scores: np.ndarray) -> np.ndarray:
    """Indices by descending score, ties in index order."""
    return np.argsort(-scores, kind="stable")


# -- nms ----------------------------------------------------------------------------------------
def _iou_row(b: np.ndarray, i: int) -> np.ndarray:
    """IoU of box i with every box (no +1 on sizes), in the boxes' dtype."""
    dt = b.dtype.type
    x0, y0, x1, y1 = b.T
    iw = np.minimum(x1[i], x1) - np.maximum(x0[i], x0)
    ih = np.minimum(y1[i], y1) - np.maximum(y0[i], y0)
    inter = np.where(iw > 0, iw, dt(0)) * np.where(ih > 0, ih, dt(0))
    area = (x1 - x0) * (y1 - y0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return inter / (area[i] + area - inter)


def _greedy_nms(b: np.ndarray, threshold: float) -> np.ndarray:
    """Indices of boxes kept by greedy NMS in the given order: a box is dropped when its IoU
    with a kept earlier box exceeds the threshold."""
    n = b.shape[0]
    thr = b.dtype.type(np.float32(threshold))
    dropped = np.zeros(n, bool)
    later = np.arange(n)
    for i in range(n):
        if not dropped[i]:
            dropped |= (_iou_row(b, i) > thr) & (later > i)
    return np.flatnonzero(~dropped)


@host_op("nms", dtypes=FLOATS)
def nms(
    boxes: Tensor,
    iou_threshold: float = 0.3,
    scores: Tensor | None = None,
    category_idxs: Tensor | None = None,
    categories: Sequence[int] | None = None,
    top_k: int | None = None,
) -> Tensor:
    """Greedy non-maximum suppression of ``boxes`` [N, 4] (x1, y1, x2, y2): int64 indices of
    the kept boxes, by descending ``scores`` when given (else in input order). With
    ``category_idxs`` and ``categories`` each category is suppressed on its own and the kept
    boxes of all categories are sorted by score; ``top_k`` keeps the best k of them."""
    b = host(boxes, "nms")
    if b.ndim != 2 or b.shape[1] != 4:
        raise ValueError(f"(InvalidArgument) The shape {list(b.shape)} of boxes must be (N, 4).")
    if scores is None:
        return to_tensor(_greedy_nms(b, iou_threshold), np.int64)
    s = host(scores, "nms")
    if category_idxs is None:
        order = _desc(s)
        return to_tensor(order[_greedy_nms(b[order], iou_threshold)], np.int64)
    if top_k is not None:
        assert top_k <= s.shape[0], "top_k should be smaller equal than the number of boxes"
    assert categories is not None, (
        "if category_idxs is given, categories which is a list of unique id of all categories "
        "is necessary"
    )
    cat = host(category_idxs, "nms")
    keep = np.zeros(s.shape[0], bool)
    for c in categories:
        idx = np.flatnonzero(cat == c)
        if idx.size <= 1:
            keep[idx] = True
            continue
        order = idx[_desc(s[idx])]
        keep[order[_greedy_nms(b[order], iou_threshold)]] = True
    kept = np.flatnonzero(keep)
    kept = kept[_desc(s[kept])]
    if top_k is not None:
        kept = kept[: min(top_k, kept.size)]
    return to_tensor(kept, np.int64)


# -- matrix_nms ---------------------------------------------------------------------------------
def _area(b: np.ndarray, normalized: bool) -> np.ndarray:
    """Box areas; 0 for inverted boxes; +1 on each side for pixel boxes."""
    w, h = b[..., 2] - b[..., 0], b[..., 3] - b[..., 1]
    one = b.dtype.type(1)
    area = w * h if normalized else (w + one) * (h + one)
    return np.where((b[..., 2] < b[..., 0]) | (b[..., 3] < b[..., 1]), b.dtype.type(0), area)


def _jaccard(b1: np.ndarray, b2: np.ndarray, normalized: bool) -> np.ndarray:
    """IoU of every box in b1 [P, 4] with every box in b2 [Q, 4] -> [P, Q] (0 when apart)."""
    p, q = b1[:, None], b2[None]
    apart = (
        (q[..., 0] > p[..., 2])
        | (q[..., 2] < p[..., 0])
        | (q[..., 1] > p[..., 3])
        | (q[..., 3] < p[..., 1])
    )
    norm = b1.dtype.type(0 if normalized else 1)
    iw = np.minimum(p[..., 2], q[..., 2]) - np.maximum(p[..., 0], q[..., 0]) + norm
    ih = np.minimum(p[..., 3], q[..., 3]) - np.maximum(p[..., 1], q[..., 1]) + norm
    inter = iw * ih
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (_area(b1, normalized)[:, None] + _area(b2, normalized)[None] - inter)
    return np.where(apart, b1.dtype.type(0), iou)


def _matrix_nms_class(b, s, score_thr, post_thr, sigma, top_k, normalized, gaussian):
    """(kept box indices, decayed scores) of one class by matrix NMS."""
    dt = s.dtype.type
    cand = np.flatnonzero(s > score_thr)
    if cand.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, s.dtype)
    perm = cand[_desc(s[cand])]
    if top_k > -1:
        perm = perm[:top_k]
    k = perm.size
    iou = np.tril(_jaccard(b[perm], b[perm], normalized), -1)  # iou[i, j] for j < i
    iou_max = iou.max(axis=1) if k > 1 else np.zeros(k, s.dtype)
    lower = np.tril(np.ones((k, k), bool), -1)
    if gaussian:  # the exponent in the boxes' dtype, the exponential in float64, as Paddle's
        arg = (iou_max[None] * iou_max[None] - iou * iou) * dt(np.float32(sigma))
        decay = np.exp(arg.astype(np.float64)).astype(s.dtype)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            decay = (1.0 - iou.astype(np.float64)) / (1.0 - iou_max[None].astype(np.float64))
        decay = decay.astype(s.dtype)
    decay = np.where(lower, decay, dt(1)).min(axis=1, initial=dt(1))
    decayed = np.where(np.arange(k) == 0, s[perm], decay * s[perm]).astype(s.dtype)
    keep = decayed > post_thr
    return perm[keep], decayed[keep]


@host_op("matrix_nms", dtypes=FLOATS)
def matrix_nms(
    bboxes: Tensor,
    scores: Tensor,
    score_threshold: float,
    post_threshold: float,
    nms_top_k: int,
    keep_top_k: int,
    use_gaussian: bool = False,
    gaussian_sigma: float = 2.0,
    background_label: int = 0,
    normalized: bool = True,
    return_index: bool = False,
    return_rois_num: bool = True,
) -> tuple[Tensor, Tensor | None, Tensor | None]:
    """Matrix NMS (SOLOv2) of ``bboxes`` [N, M, 4] with per-class ``scores`` [N, C, M]: each
    class's candidates above score_threshold (best nms_top_k) get their scores decayed by their
    overlap with higher-scored boxes (linear or Gaussian), those above post_threshold are kept,
    and each image keeps its best keep_top_k. Returns (out [K, 6] rows of label, score, x1, y1,
    x2, y2; rois_num [N] int32 or None; index [K, 1] int32 into the flattened boxes or None)."""
    b, s = host(bboxes, "matrix_nms"), host(scores, "matrix_nms")
    if b.ndim != 3:
        raise ValueError(
            f"(InvalidArgument) The rank of Input(BBoxes) must be 3.But received rank = {b.ndim}."
        )
    if b.shape[2] != 4:
        raise ValueError(
            "(InvalidArgument) The last dimension of Input (BBoxes) must be 4, represents the "
            "layout of coordinate [xmin, ymin, xmax, ymax]."
        )
    if s.ndim != 3:
        raise ValueError(
            f"(InvalidArgument) The rank of Input(Scores) must be 3.But received rank = {s.ndim}."
        )
    if b.shape[1] != s.shape[2]:
        raise ValueError(
            f"(InvalidArgument) The 2nd dimension of Input(BBoxes) must be equal to last "
            f"dimension of Input(Scores), which represents the predicted bboxes.But received "
            f"box_dims[1]({b.shape[1]}) != score_dims[2]({s.shape[2]})"
        )
    kernel_dtype(s, FLOATS, "matrix_nms")
    if b.dtype != s.dtype:
        raise retrieve_error(s.dtype, b.dtype)
    dt = s.dtype.type
    score_thr, post_thr = dt(np.float32(score_threshold)), dt(np.float32(post_threshold))
    n, classes, m = s.shape
    rows, index, counts = [], [], []
    for i in range(n):
        found = []
        for c in range(classes):
            if c == background_label:
                continue
            idx, dec = _matrix_nms_class(
                b[i],
                s[i, c],
                score_thr,
                post_thr,
                gaussian_sigma,
                nms_top_k,
                normalized,
                use_gaussian,
            )
            found += [(c, d, j) for j, d in zip(idx, dec)]
        order = _desc(np.array([f[1] for f in found], s.dtype))
        if keep_top_k > -1:
            order = order[:keep_top_k]
        for k in order:
            c, d, j = found[k]
            rows.append(np.concatenate([np.array([c, d], s.dtype), b[i, j]]))
            index.append(i * m + j)
        counts.append(len(order))
    out = np.stack(rows).astype(s.dtype) if rows else np.zeros((0, 6), s.dtype)
    idx_t = to_tensor(np.asarray(index, np.int32).reshape(-1, 1)) if return_index else None
    num_t = to_tensor(np.asarray(counts, np.int32)) if return_rois_num else None
    return to_tensor(out), num_t, idx_t


# -- generate_proposals -------------------------------------------------------------------------
_BBOX_CLIP = np.log(1000.0 / 16.0)


def _decode(anchors, deltas, var, offset):
    """RPN box decoding (sizes clipped at log(1000 / 16)) -> corner boxes."""
    dt = anchors.dtype.type
    aw = anchors[:, 2] - anchors[:, 0] + offset
    ah = anchors[:, 3] - anchors[:, 1] + offset
    acx, acy = anchors[:, 0] + dt(0.5) * aw, anchors[:, 1] + dt(0.5) * ah
    cx = var[:, 0] * deltas[:, 0] * aw + acx
    cy = var[:, 1] * deltas[:, 1] * ah + acy
    clip = dt(_BBOX_CLIP)
    w = np.exp(np.minimum(var[:, 2] * deltas[:, 2], clip)) * aw
    h = np.exp(np.minimum(var[:, 3] * deltas[:, 3], clip)) * ah
    two = dt(2)
    return np.stack([cx - w / two, cy - h / two, cx + w / two - offset, cy + h / two - offset], 1)


def _adaptive_nms(b, s, threshold, eta, normalized, limit):
    """Greedy NMS by descending score (equal scores: later index first, as Paddle's stable
    ascending sort read from the back): a box is kept when its IoU with every kept box is at
    most the threshold, which shrinks by eta after each keep while above 0.5. Stops after
    ``limit`` boxes (when positive)."""
    dt = s.dtype.type
    thr = dt(np.float32(threshold))
    worst = np.full(s.shape[0], -np.inf, s.dtype)  # largest IoU with a kept box
    kept: list[int] = []
    for i in np.argsort(s, kind="stable")[::-1]:
        if not worst[i] <= thr:
            continue
        kept.append(int(i))
        if 0 < limit <= len(kept):
            break
        worst = np.maximum(worst, _jaccard(b[i : i + 1], b, normalized)[0])
        if eta < 1 and thr > 0.5:
            thr = dt(thr * dt(np.float32(eta)))
    return np.asarray(kept, np.int64)


def _proposals_one(im, anchors, var, deltas, s, pre, post, thresh, min_size, eta, pixel):
    dt = s.dtype.type
    offset = dt(1 if pixel else 0)
    order = _desc(s)
    if 0 < pre < s.size:
        order = order[:pre]
    s, props = s[order], _decode(anchors[order], deltas[order], var[order], offset)
    zero = dt(0)
    props[:, 0::2] = np.maximum(np.minimum(props[:, 0::2], im[1] - offset), zero)
    props[:, 1::2] = np.maximum(np.minimum(props[:, 1::2], im[0] - offset), zero)
    ws = props[:, 2] - props[:, 0] + offset
    hs = props[:, 3] - props[:, 1] + offset
    lo = np.float32(max(np.float32(min_size), np.float32(1.0)))
    keep = (ws >= lo) & (hs >= lo)
    if pixel:
        two = dt(2)
        keep &= (props[:, 0] + ws / two <= im[1]) & (props[:, 1] + hs / two <= im[0])
    if not keep.any():
        return np.zeros((1, 4), s.dtype), np.zeros((1, 1), s.dtype)
    props, s = props[keep], s[keep]
    if thresh <= 0:
        return props, s[:, None]
    kept = _adaptive_nms(props, s, thresh, eta, not pixel, post)
    return props[kept], s[kept][:, None]


@host_op("generate_proposals", dtypes=FLOATS)
def generate_proposals(
    scores: Tensor,
    bbox_deltas: Tensor,
    img_size: Tensor,
    anchors: Tensor,
    variances: Tensor,
    pre_nms_top_n: int = 6000,
    post_nms_top_n: int = 1000,
    nms_thresh: float = 0.5,
    min_size: float = 0.1,
    eta: float = 1.0,
    pixel_offset: bool = False,
    return_rois_num: bool = False,
) -> tuple[Tensor, Tensor, Tensor]:
    """RPN proposals: per image, the pre_nms_top_n best anchors (``scores`` [N, A, H, W])
    decoded by ``bbox_deltas`` [N, 4A, H, W] and ``variances``, clipped to ``img_size`` [N, 2]
    (height, width), boxes smaller than min_size dropped, then NMS (adaptive with ``eta``) and
    the post_nms_top_n best. Returns (rois [R, 4], probs [R, 1], rois_num [N] int32).
    ``return_rois_num`` must be True, as in Paddle's dynamic mode."""
    assert return_rois_num, "return_rois_num should be True in dygraph mode."
    what = "generate_proposals"
    s, d = host(scores, what), host(bbox_deltas, what)
    im, a, v = host(img_size, what), host(anchors, what), host(variances, what)
    for arr in (d, im, a, v):
        if arr.dtype != s.dtype:
            raise retrieve_error(s.dtype, arr.dtype)
    n, na, h, w = s.shape
    if d.shape != (n, 4 * na, h, w):
        raise ValueError(
            f"(InvalidArgument) bbox_deltas should be [N, 4 * A, H, W] = "
            f"{[n, 4 * na, h, w]}, got {list(d.shape)}"
        )
    s = s.transpose(0, 2, 3, 1).reshape(n, -1)
    d = d.transpose(0, 2, 3, 1).reshape(n, -1, 4)
    a, v = a.reshape(-1, 4), v.reshape(-1, 4)
    rois, probs, counts = [], [], []
    for i in range(n):
        r, p = _proposals_one(
            im[i],
            a,
            v,
            d[i],
            s[i],
            int(pre_nms_top_n),
            int(post_nms_top_n),
            float(nms_thresh),
            float(min_size),
            float(eta),
            bool(pixel_offset),
        )
        rois.append(r)
        probs.append(p)
        counts.append(r.shape[0])
    return (
        to_tensor(np.concatenate(rois).astype(s.dtype)),
        to_tensor(np.concatenate(probs).astype(s.dtype)),
        to_tensor(np.asarray(counts, np.int32)),
    )


# -- distribute_fpn_proposals -------------------------------------------------------------------
@host_op("distribute_fpn_proposals", dtypes=FLOATS)
def distribute_fpn_proposals(
    fpn_rois: Tensor,
    min_level: int,
    max_level: int,
    refer_level: int,
    refer_scale: int,
    pixel_offset: bool = False,
    rois_num: Tensor | None = None,
) -> tuple[list[Tensor], Tensor, list[Tensor]]:
    """Assign each RoI (``fpn_rois`` [R, 4], ``rois_num`` [B] per image) to the FPN level
    floor(log2(sqrt(area) / refer_scale + 1e-6) + refer_level), clipped to [min_level,
    max_level]. Returns (RoIs per level, restore_ind [R, 1] int32 giving each original RoI's
    row in the concatenated levels, RoI counts per level and image, int32)."""
    assert max_level > 0 and min_level > 0, "min_level and max_level should be greater than 0"
    levels = max_level - min_level + 1
    assert levels > 1, "max_level should be greater than min_level"
    assert levels < 100, "Only support max to 100 levels, (max_level - min_level + 1 < 100)"
    assert rois_num is not None, "rois_num should not be None in dygraph mode."
    r = host(fpn_rois, "distribute_fpn_proposals")
    counts = host(rois_num, "distribute_fpn_proposals").astype(np.int64).reshape(-1)
    ends = np.cumsum(counts)
    total = int(ends[-1]) if ends.size else 0
    if total > r.shape[0]:
        raise ValueError(
            f"(InvalidArgument) rois_num sums to {total} but fpn_rois has {r.shape[0]} rows"
        )
    r = r[:total]
    dt = r.dtype.type
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.sqrt(_area(r, normalized=not pixel_offset))
        lvl = np.floor(np.log2(scale / dt(refer_scale) + dt(1e-6)) + dt(refer_level))
    lvl = np.clip(np.nan_to_num(lvl, nan=min_level), min_level, max_level).astype(np.int64)
    image = np.searchsorted(ends, np.arange(total), side="right")
    order = np.lexsort((np.arange(total), image, lvl))  # by level, then image, then input order
    restore = np.empty(total, np.int32)
    restore[order] = np.arange(total, dtype=np.int32)
    multi, nums = [], []
    for k in range(min_level, max_level + 1):
        sel = lvl == k
        multi.append(to_tensor(r[sel].reshape(-1, 4)))
        nums.append(to_tensor(np.bincount(image[sel], minlength=counts.size).astype(np.int32)))
    return multi, to_tensor(restore.reshape(-1, 1)), nums
