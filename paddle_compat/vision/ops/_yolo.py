"""YOLOv3 heads: yolo_box (decode a head's output into boxes and class scores) and yolo_loss
(the training loss, differentiable in the head's output).

A head's output x is [N, A * (5 + classes), H, W]: per anchor the box (tx, ty, tw, th), the
objectness and the class logits. Both ops are vectorized over anchors, cells and ground-truth
boxes; where Paddle's kernel loops and later writes win, the winner is picked explicitly.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.registry import op
from ..._core.tensor import Tensor  # noqa: F401  (the public signatures name it)
from ._common import FLOATS, VISION, require_tensors, retrieve_error, sigmoid, vision_op

__all__ = ["yolo_box", "yolo_loss"]


def _bad(msg: str) -> ValueError:
    return ValueError(f"(InvalidArgument) {msg}")


def _f32(v, dt):
    """A float attribute as Paddle's kernels see it: a C float, widened to the data type."""
    return jnp.asarray(np.float32(v), dt)


# -- yolo_box -----------------------------------------------------------------------------------
@op(
    "yolo_box",
    tensors=("x", "img_size"),
    dtypes=FLOATS,
    differentiable=False,
    **VISION,
)
def yolo_box(
    x: jax.Array,
    img_size: jax.Array,
    anchors: Sequence[int],
    class_num: int,
    conf_thresh: float,
    downsample_ratio: int,
    clip_bbox: bool = True,
    name: str | None = None,
    scale_x_y: float = 1.0,
    iou_aware: bool = False,
    iou_aware_factor: float = 0.5,
) -> tuple[jax.Array, jax.Array]:
    """Decode a YOLOv3 head: boxes [N, A * H * W, 4] as (x1, y1, x2, y2) in the image size
    ``img_size`` [N, 2] (int32 height, width) and scores [N, A * H * W, class_num] =
    objectness * sigmoid(class logit); both zero where the objectness is below conf_thresh.
    With ``iou_aware`` the first A channels are IoU logits and the objectness becomes
    obj^(1 - factor) * iou^factor."""
    anchors = [int(a) for a in anchors]
    an = len(anchors) // 2
    if x.ndim != 4:
        raise _bad(f"Input(X) of YoloBoxOp should be a 4-D Tensor, but got {x.ndim}-D")
    if img_size.ndim != 2 or img_size.shape[1] != 2:
        raise _bad(f"Input(ImgSize) dim[1] should be 2, but got shape {list(img_size.shape)}")
    if class_num <= 0:
        raise _bad(f"Attr(class_num) should be an integer greater than 0, but got {class_num}")
    per = 6 + class_num if iou_aware else 5 + class_num
    if x.shape[1] != an * per:
        what = "6" if iou_aware else "5"
        raise _bad(
            f"Input(X) dim[1] should be equal to (anchor_mask_number * ({what} + class_num))."
            f"But received dim[1]({x.shape[1]}) != (anchor_mask_number * ({what}+class_num)"
            f"({an * per})."
        )
    if img_size.dtype != jnp.int32:
        raise retrieve_error(jnp.int32, img_size.dtype)
    dt = x.dtype
    n, _, h, w = x.shape
    if x.size == 0 or img_size.size == 0:
        return jnp.zeros((n, an * h * w, 4), dt), jnp.zeros((n, an * h * w, class_num), dt)
    if iou_aware:
        iou, x = x[:, :an], x[:, an:]
    p = x.reshape(n, an, 5 + class_num, h, w)
    conf = sigmoid(p[:, :, 4])
    if iou_aware:
        f = iou_aware_factor
        conf = conf ** jnp.asarray(1.0 - float(np.float32(f)), dt) * sigmoid(iou) ** _f32(f, dt)
    keep = conf >= _f32(conf_thresh, dt)
    scale = _f32(scale_x_y, dt)
    bias = _f32(np.float32(-0.5) * (np.float32(scale_x_y) - np.float32(1.0)), dt)
    img_h = img_size[:, 0].astype(dt)[:, None, None, None]
    img_w = img_size[:, 1].astype(dt)[:, None, None, None]
    col = jnp.arange(w, dtype=dt)[None, None, None, :]
    row = jnp.arange(h, dtype=dt)[None, None, :, None]
    aw = jnp.asarray(anchors[0::2], dt)[None, :, None, None]
    ah = jnp.asarray(anchors[1::2], dt)[None, :, None, None]
    cx = (col + sigmoid(p[:, :, 0]) * scale + bias) * img_w / jnp.asarray(w, dt)
    cy = (row + sigmoid(p[:, :, 1]) * scale + bias) * img_h / jnp.asarray(h, dt)
    bw = jnp.exp(p[:, :, 2]) * aw * img_w / jnp.asarray(downsample_ratio * w, dt)
    bh = jnp.exp(p[:, :, 3]) * ah * img_h / jnp.asarray(downsample_ratio * h, dt)
    two = jnp.asarray(2, dt)
    x1, y1 = cx - bw / two, cy - bh / two
    x2, y2 = cx + bw / two, cy + bh / two
    if clip_bbox:
        zero = jnp.zeros((), dt)
        x1, y1 = jnp.where(x1 > 0, x1, zero), jnp.where(y1 > 0, y1, zero)
        x2 = jnp.where(x2 < img_w - 1, x2, img_w - 1)
        y2 = jnp.where(y2 < img_h - 1, y2, img_h - 1)
    boxes = jnp.stack([x1, y1, x2, y2], axis=-1)  # [N, A, H, W, 4]
    scores = conf[:, :, None] * sigmoid(p[:, :, 5:])  # [N, A, classes, H, W]
    boxes = jnp.where(keep[..., None], boxes, 0).reshape(n, an * h * w, 4)
    scores = jnp.where(keep[:, :, None], scores, 0).transpose(0, 1, 3, 4, 2)
    return boxes, scores.reshape(n, an * h * w, class_num)


# -- yolo_loss ----------------------------------------------------------------------------------
def _sce(x, label):
    """Sigmoid cross entropy max(x, 0) - x * label + log(1 + exp(-|x|)) (gradient
    sigmoid(x) - label)."""
    return jax.nn.softplus(x) - x * label


def _l1(x, target):
    """|target - x| with Paddle's gradient: 1 where x > target, else -1."""
    return jnp.where(x > target, x - target, target - x)


def _overlap(c1, w1, c2, w2):
    left = jnp.maximum(c1 - w1 / 2, c2 - w2 / 2)
    right = jnp.minimum(c1 + w1 / 2, c2 + w2 / 2)
    return right - left


def _iou(b1, b2):
    """IoU of center-size boxes (x, y, w, h) in the last axis (broadcast)."""
    ow = _overlap(b1[..., 0], b1[..., 2], b2[..., 0], b2[..., 2])
    oh = _overlap(b1[..., 1], b1[..., 3], b2[..., 1], b2[..., 3])
    inter = jnp.where((ow < 0) | (oh < 0), jnp.zeros((), ow.dtype), ow * oh)
    union = b1[..., 2] * b1[..., 3] + b2[..., 2] * b2[..., 3] - inter
    return inter / union


def _check_loss(kw, name: str) -> None:
    require_tensors(kw, ("x", "gt_box", "gt_label"), name)


@vision_op(
    "yolo_loss",
    ("x", "gt_box", "gt_label", "gt_score"),
    no_grad=("gt_box", "gt_label", "gt_score"),
    check=_check_loss,
)
def yolo_loss(
    x: jax.Array,
    gt_box: jax.Array,
    gt_label: jax.Array,
    anchors: Sequence[int],
    anchor_mask: Sequence[int],
    class_num: int,
    ignore_thresh: float,
    downsample_ratio: int,
    gt_score: jax.Array | None = None,
    use_label_smooth: bool = True,
    name: str | None = None,
    scale_x_y: float = 1.0,
) -> jax.Array:
    """YOLOv3 loss [N] of a head ``x`` [N, M * (5 + class_num), H, H] for the anchors
    ``anchor_mask`` picks: each valid ground truth (``gt_box`` [N, B, 4] center-size in [0, 1],
    ``gt_label`` [N, B] int32, optional mixup ``gt_score``) trains the cell it falls in with its
    best-matching anchor (location: sigmoid cross entropy on x, y and L1 on log w, h, weighted by
    2 - w * h; classes: sigmoid cross entropy, label-smoothed); every cell trains objectness,
    except predictions overlapping some ground truth by more than ignore_thresh."""
    anchors = [int(a) for a in anchors]
    mask = [int(m) for m in anchor_mask]
    an, mn = len(anchors) // 2, len(mask)
    if x.ndim != 4:
        raise _bad(f"Input(X) should be a 4-D tensor. But received X dimension({x.ndim})")
    n, c, h, w = x.shape
    if h != w:
        raise _bad(
            f"Input(X) dim[3] and dim[4] should be equal.But received dim[3]({h}) != dim[4]({w})"
        )
    if c != mn * (5 + class_num):
        raise _bad(
            f"Input(X) dim[1] should be equal to (anchor_mask_number * (5 + class_num)).But "
            f"received dim[1]({c}) != (anchor_mask_number * (5+class_num)"
            f"({mn * (5 + class_num)})."
        )
    if gt_box.ndim != 3 or gt_box.shape[2] != 4:
        raise _bad(f"Input(GTBox) should be [N, B, 4], but received shape {list(gt_box.shape)}")
    if gt_label.shape != gt_box.shape[:2]:
        raise _bad(
            f"Input(GTLabel) should be [N, B] = {list(gt_box.shape[:2])}, got "
            f"{list(gt_label.shape)}"
        )
    for m in mask:
        if m >= an:
            raise _bad(
                f"Attr(anchor_mask) should not crossover Attr(anchors).But received "
                f"anchor_mask[i]({m}) > anchor_num({an})"
            )
    if class_num <= 0:
        raise _bad(f"Attr(class_num) should be an integer greater than 0, but got {class_num}")
    dt = x.dtype
    if gt_box.dtype != dt:
        raise retrieve_error(dt, gt_box.dtype)
    if gt_label.dtype != jnp.int32:
        raise retrieve_error(jnp.int32, gt_label.dtype)
    if gt_score is not None and gt_score.dtype != dt:
        raise retrieve_error(dt, gt_score.dtype)
    b = gt_box.shape[1]
    gt_box = jax.lax.stop_gradient(gt_box)
    score = jnp.ones((n, b), dt) if gt_score is None else jax.lax.stop_gradient(gt_score.astype(dt))
    input_size = downsample_ratio * h
    p = x.reshape(n, mn, 5 + class_num, h, w)
    if use_label_smooth:
        smooth = np.asarray(min(1.0 / float(np.asarray(class_num, dt)), 1.0 / 40), dt)
        pos, neg = jnp.asarray(1.0 - float(smooth), dt), jnp.asarray(smooth, dt)
    else:
        pos, neg = jnp.asarray(1, dt), jnp.asarray(0, dt)

    # predictions overlapping a ground truth by more than ignore_thresh train no objectness
    scale = _f32(scale_x_y, dt)
    bias = _f32(np.float32(-0.5) * (np.float32(scale_x_y) - np.float32(1.0)), dt)
    grid = jnp.asarray(h, dt)
    col = jnp.arange(w, dtype=dt)[None, None, None, :]
    row = jnp.arange(h, dtype=dt)[None, None, :, None]
    sel = np.asarray(mask)
    aw = jnp.asarray(np.asarray(anchors[0::2])[sel], dt)[None, :, None, None]
    ah = jnp.asarray(np.asarray(anchors[1::2])[sel], dt)[None, :, None, None]
    xs = jax.lax.stop_gradient(p)
    pred = jnp.stack(
        [
            (col + sigmoid(xs[:, :, 0]) * scale + bias) / grid,
            (row + sigmoid(xs[:, :, 1]) * scale + bias) / grid,
            jnp.exp(xs[:, :, 2]) * aw / jnp.asarray(input_size, dt),
            jnp.exp(xs[:, :, 3]) * ah / jnp.asarray(input_size, dt),
        ],
        axis=-1,
    )  # [N, M, H, W, 4]
    tiny = jnp.asarray(1e-6, dt)
    valid = ~((gt_box[..., 2] < tiny) | (gt_box[..., 3] < tiny))  # [N, B]
    ious = _iou(pred[:, :, :, :, None], gt_box[:, None, None, None])  # [N, M, H, W, B]
    ious = jnp.where(valid[:, None, None, None] & (ious > 0), ious, 0)
    best = jnp.max(ious, axis=-1) if b else jnp.zeros(pred.shape[:4], dt)
    obj = jnp.where(best > _f32(ignore_thresh, dt), jnp.asarray(-1, dt), jnp.zeros((), dt))

    # each valid ground truth picks its best anchor (by shape) and the cell it falls in
    an_wh = jnp.asarray(np.stack([anchors[0::2], anchors[1::2]], axis=-1), dt)
    an_boxes = jnp.concatenate(
        [jnp.zeros((an, 2), dt), an_wh / jnp.asarray(input_size, dt)], axis=-1
    )  # [A, 4] (0, 0, w, h)
    gt_shift = jnp.concatenate([jnp.zeros((n, b, 2), dt), gt_box[..., 2:]], axis=-1)
    an_iou = _iou(an_boxes[None, None], gt_shift[:, :, None]).astype(jnp.float32)
    an_iou = jnp.where(an_iou > 0, an_iou, 0)  # [N, B, A]; NaN and 0 never beat anchor 0
    best_n = jnp.argmax(an_iou, axis=-1)
    lookup = np.full(an, -1, np.int64)
    for j in reversed(range(mn)):
        lookup[mask[j]] = j
    midx = jnp.asarray(lookup)[best_n]
    hit = valid & (midx >= 0)  # [N, B]
    gi = jnp.clip((gt_box[..., 0] * jnp.asarray(w, dt)).astype(jnp.int64), 0, w - 1)
    gj = jnp.clip((gt_box[..., 1] * jnp.asarray(h, dt)).astype(jnp.int64), 0, h - 1)
    m_ = jnp.maximum(midx, 0)
    ni = jnp.arange(n)[:, None]
    at = p[ni, m_, :, gj, gi]  # [N, B, 5 + classes]: the predictions each ground truth trains

    anc_w = jnp.asarray(anchors[0::2], dt)[best_n]
    anc_h = jnp.asarray(anchors[1::2], dt)[best_n]
    tx = gt_box[..., 0] * grid - gi.astype(dt)
    ty = gt_box[..., 1] * grid - gj.astype(dt)
    size = jnp.asarray(input_size, dt)
    tw = jnp.log(jnp.where(hit, gt_box[..., 2] * size / anc_w, 1))
    th = jnp.log(jnp.where(hit, gt_box[..., 3] * size / anc_h, 1))
    wscale = ((2.0 - (gt_box[..., 2] * gt_box[..., 3]).astype(jnp.float64)) * score).astype(dt)
    loc = (
        _sce(at[..., 0], tx) + _sce(at[..., 1], ty) + _l1(at[..., 2], tw) + _l1(at[..., 3], th)
    ) * wscale
    labels = jnp.where(
        jnp.arange(class_num) == gt_label[..., None].astype(jnp.int64), pos, neg
    )  # [N, B, classes]
    cls = jnp.sum(_sce(at[..., 5:], labels), axis=-1) * score

    # the objectness target of a cell a ground truth trains is its score (the last one wins)
    key = (m_ * h + gj) * w + gi
    later = (key[:, :, None] == key[:, None, :]) & hit[:, None, :]
    later = later & (jnp.arange(b)[None, :] > jnp.arange(b)[:, None])[None]
    wins = hit & ~jnp.any(later, axis=-1)
    # every ground truth adds its loss, but Paddle's gradient kernel writes (not adds) each
    # one's gradient into its cell, so in a cell trained by several only the last one's counts
    terms = loc + cls
    per_gt = jnp.where(hit, jnp.where(wins, terms, jax.lax.stop_gradient(terms)), 0)
    obj = obj.at[ni, jnp.where(wins, m_, mn), gj, gi].set(score, mode="drop")
    conf = p[:, :, 4]
    obj_loss = jnp.where(
        obj > jnp.asarray(1e-5, dt),
        _sce(conf, jnp.ones((), dt)) * obj,
        jnp.where(obj > jnp.asarray(-0.5, dt), _sce(conf, jnp.zeros((), dt)), 0),
    )
    return jnp.sum(per_gt, axis=1) + jnp.sum(obj_loss, axis=(1, 2, 3))
