"""Program rows for detection heads, each ``paddle.vision.ops``' function: ``yolo_box``
(YOLOv3-style decoding), ``prior_box`` and ``box_coder`` (SSD), ``generate_proposals``,
``distribute_fpn_proposals`` and ``roi_align`` (two-stage detectors' proposals and box
features), ``matrix_nms`` (PP-YOLOv2's, SOLOv2's); and ``multiclass_nms3`` (what
PaddleDetection's exports end with), which ``paddle.vision`` lacks, here with
``vision.ops.matrix_nms``'s overlaps. The NMS outputs' size depends on the scores, so they run
on the host (numpy) with concrete inputs: a compiled program cannot hold them
(``DataDependentStep``), and the Predictor runs such a program in compiled segments with these
ops between them (``segments.HOST_OPS``).

NMS as Paddle's CPU kernel, per image: for each class but ``background_label``, the boxes scoring
above ``score_threshold``, the best ``nms_top_k`` of them by score, then greedy NMS at
``nms_threshold`` (shrunk by ``nms_eta`` after each kept box while above 0.5); over all
classes, the best ``keep_top_k`` by score. Rows ``[label, score, x1, y1, x2, y2]`` grouped by
label (ascending), best score first within one (in RoI order for a two-stage detector's
``rois_num`` form); ``index``: each row's box in the batch's flattened boxes;
``nms_rois_num``: rows per image.
"""

from __future__ import annotations

import numpy as np

from ..._core.tensor import Tensor
from . import op_table as _ot
from .program import DataDependentStep

BLOCK = 64  # boxes whose overlaps with all the others are computed at once


def _nms(boxes, scores, a) -> list[int]:
    """One class of one image: the kept box indices, best first (overlaps as
    ``vision.ops.matrix_nms`` computes them: float32, 0 for boxes apart, +1 on pixel sizes)."""
    from ...vision.ops._proposals import _desc, _jaccard

    idx = np.flatnonzero(scores > a["score_threshold"])
    idx = idx[_desc(scores[idx])]
    if a["nms_top_k"] > -1:
        idx = idx[: a["nms_top_k"]]
    b, norm = boxes[idx], a["normalized"]
    kept, thresh, n = [], a["nms_threshold"], len(idx)
    if a["nms_eta"] >= 1:  # a fixed threshold: each kept box suppresses the later overlaps
        alive = np.ones(n, bool)
        for s in range(0, n, BLOCK):
            if not alive[s : s + BLOCK].any():
                continue
            over = _jaccard(b[s : s + BLOCK], b, norm) > thresh
            for j in range(s, min(s + BLOCK, n)):
                if alive[j]:
                    kept.append(j)
                    alive[j + 1 :] &= ~over[j - s, j + 1 :]
        return [int(idx[j]) for j in kept]
    for j in range(n):  # the threshold shrinks: each box against the kept ones, in turn
        if not kept or np.all(_jaccard(b[j : j + 1], b[kept], norm) <= thresh):
            kept.append(j)
            if thresh > 0.5:
                thresh *= a["nms_eta"]
    return [int(idx[j]) for j in kept]


def _attrs(a: dict) -> dict:
    return {
        "score_threshold": float(a.get("score_threshold", 0.05)),
        "nms_top_k": int(a.get("nms_top_k", -1)),
        "keep_top_k": int(a.get("keep_top_k", -1)),
        "nms_threshold": float(a.get("nms_threshold", 0.3)),
        "normalized": bool(a.get("normalized", True)),
        "nms_eta": float(a.get("nms_eta", 1.0)),
        "background_label": int(a.get("background_label", 0)),
    }


def _host(v, what: str) -> np.ndarray:
    if isinstance(v, Tensor) and _ot.is_traced(v):
        raise DataDependentStep(
            f"{what}: its output size depends on the scores, which one compiled XLA program "
            "cannot hold."
        )
    return np.asarray(v.numpy() if isinstance(v, Tensor) else v)


def _multiclass_nms3(args, a):
    """``multiclass_nms3(bboxes, scores, rois_num)`` -> (out [K, 6], index [K, 1] int32,
    nms_rois_num [N] int32). One-stage: bboxes [N, M, 4] shared by the classes, scores
    [N, C, M]; rows best first within a label, index ``n * M + box``. Two-stage (``rois_num``
    given): bboxes [R, C, 4] (a box per class) and scores [R, C] hold every image's RoIs,
    ``rois_num`` [N] how many each image has; rows in RoI order within a label, index
    ``roi * C + class``."""
    boxes = _host(args[0], "multiclass_nms3").astype(np.float32)
    scores = _host(args[1], "multiclass_nms3").astype(np.float32)
    counts_in = None if len(args) < 3 or args[2] is None else _host(args[2], "multiclass_nms3")
    at = _attrs(a)
    rows, index, counts = [], [], []
    for cls, to_index, in_box_order in _images(boxes, scores, counts_in):
        picked = []  # (score, label, box index)
        for c, (b, sc) in enumerate(cls):
            if c != at["background_label"]:
                kept = _nms(b, sc, at)
                picked += [(sc[i], c, i) for i in (sorted(kept) if in_box_order else kept)]
        if -1 < at["keep_top_k"] < len(picked):
            order = sorted(range(len(picked)), key=lambda k: -picked[k][0])
            picked = [picked[k] for k in sorted(order[: at["keep_top_k"]])]
        picked.sort(key=lambda p: p[1])  # by label; stable: the order above within one
        for sc, c, i in picked:
            rows.append([c, sc, *cls[c][0][i]])
            index.append([to_index(c, i)])
        counts.append(len(picked))
    out = np.asarray(rows, np.float32).reshape(-1, 6)
    return (
        Tensor(out),
        Tensor(np.asarray(index, np.int32).reshape(-1, 1)),
        Tensor(np.asarray(counts, np.int32)),
    )


def _images(boxes, scores, rois_num):
    """Per image: ([(boxes [m, 4], scores [m]) per class], (class, box) -> index, whether rows
    keep the boxes' order within a label)."""
    if rois_num is None:
        if boxes.ndim != 3 or scores.ndim != 3 or boxes.shape[1] != scores.shape[2]:
            raise ValueError(
                f"(InvalidArgument) multiclass_nms3 takes bboxes [N, M, 4] and scores "
                f"[N, C, M], got {list(boxes.shape)} and {list(scores.shape)}."
            )
        m = boxes.shape[1]
        for n in range(boxes.shape[0]):
            cls = [(boxes[n], scores[n, c]) for c in range(scores.shape[1])]
            yield cls, (lambda c, i, n=n: n * m + i), False
        return
    rois_num = np.asarray(rois_num).reshape(-1).astype(np.int64)
    if boxes.ndim != 3 or scores.ndim != 2 or boxes.shape[1] != scores.shape[1]:
        raise ValueError(
            f"(InvalidArgument) multiclass_nms3 with rois_num takes bboxes [R, C, 4] and "
            f"scores [R, C], got {list(boxes.shape)} and {list(scores.shape)}."
        )
    if (rois_num < 0).any() or rois_num.sum() > len(scores):
        raise ValueError(
            f"(InvalidArgument) multiclass_nms3's rois_num {rois_num.tolist()} asks for more "
            f"boxes than bboxes holds ({len(scores)})."
        )
    nc, start = scores.shape[1], 0
    for m in rois_num.tolist():
        sl = slice(start, start + m)
        cls = [(boxes[sl, c], scores[sl, c]) for c in range(nc)]
        yield cls, (lambda c, i, s=start: (s + i) * nc + c), True
        start += m


def _matrix_nms(args, a):
    """``matrix_nms(bboxes, scores)`` -> (out [K, 6], index [K, 1] int32, roisnum [N] int32):
    ``paddle.vision.ops.matrix_nms`` (which returns the counts before the index)."""
    out, num, index = _vision("matrix_nms")(
        _ot._t(args[0]), _ot._t(args[1]), float(a.get("score_threshold", 0.05)),
        float(a.get("post_threshold", 0.0)), int(a.get("nms_top_k", -1)),
        int(a.get("keep_top_k", -1)), bool(a.get("use_gaussian", False)),
        float(a.get("gaussian_sigma", 2.0)), int(a.get("background_label", 0)),
        bool(a.get("normalized", True)), True, True,
    )  # fmt: skip
    return out, index, num


def _yolo_box(args, a):
    """``yolo_box(x, img_size)``: a YOLOv3 head's boxes and scores."""
    return _vision("yolo_box")(
        _ot._t(args[0]), _ot._t(args[1]), [int(v) for v in a["anchors"]],
        int(a["class_num"]), float(a["conf_thresh"]), int(a["downsample_ratio"]),
        bool(a.get("clip_bbox", True)), None, float(a.get("scale_x_y", 1.0)),
        bool(a.get("iou_aware", False)), float(a.get("iou_aware_factor", 0.5)),
    )  # fmt: skip


def _vision(fn_name: str):
    """The ``paddle.vision.ops`` function (imported on first use: paddle.vision loads lazily)."""
    from ...vision import ops

    return getattr(ops, fn_name)


def _prior_box(args, a):
    """``prior_box(input, image)``: SSD anchor boxes per feature-map cell, and their
    variances."""
    fl = lambda k: [float(v) for v in a.get(k, [])]  # noqa: E731
    return tuple(_vision("prior_box")(
        _ot._t(args[0]), _ot._t(args[1]), fl("min_sizes"), fl("max_sizes") or None,
        fl("aspect_ratios") or [1.0], fl("variances") or [0.1, 0.1, 0.2, 0.2],
        bool(a.get("flip", False)), bool(a.get("clip", False)),
        [float(a.get("step_w", 0.0)), float(a.get("step_h", 0.0))], float(a.get("offset", 0.5)),
        bool(a.get("min_max_aspect_ratios_order", False)),
    ))  # fmt: skip


def _box_coder(args, a):
    """``box_coder(prior_box, prior_box_var, target_box)``: SSD box encoding / decoding (the
    variance an input, or the attribute's list when the input is absent)."""
    var = args[1] if args[1] is not None else [float(v) for v in a.get("variance", [])]
    return _vision("box_coder")(
        _ot._t(args[0]), _ot._t(var) if not isinstance(var, list) else var, _ot._t(args[2]),
        a.get("code_type", "encode_center_size"), bool(a.get("box_normalized", True)),
        int(a.get("axis", 0)),
    )  # fmt: skip


def _roi_align(args, a):
    """``roi_align(x, boxes, boxes_num)``: each box's features pooled to a fixed size."""
    size = [int(a.get("pooled_height", 1)), int(a.get("pooled_width", 1))]
    return _vision("roi_align")(
        _ot._t(args[0]), _ot._t(args[1]), _ot._t(args[2]), size,
        float(a.get("spatial_scale", 1.0)), int(a.get("sampling_ratio", -1)),
        bool(a.get("aligned", True)),
    )  # fmt: skip


def _generate_proposals(args, a):
    """``generate_proposals(scores, bbox_deltas, im_shape, anchors, variances)``: a two-stage
    detector's region proposals (rois [K, 4], their scores [K, 1], per-image counts)."""
    rois, probs, num = _vision("generate_proposals")(
        *(_ot._t(v) for v in args[:5]), int(a.get("pre_nms_top_n", 6000)),
        int(a.get("post_nms_top_n", 1000)), float(a.get("nms_thresh", 0.5)),
        float(a.get("min_size", 0.1)), float(a.get("eta", 1.0)),
        bool(a.get("pixel_offset", True)), True,
    )  # fmt: skip
    return rois, probs, num


def _distribute_fpn_proposals(args, a):
    """``distribute_fpn_proposals(fpn_rois, rois_num)``: the proposals split by FPN level
    (a list of rois, a list of per-image counts per level, the index restoring their order)."""
    multi, restore, nums = _vision("distribute_fpn_proposals")(
        _ot._t(args[0]), int(a["min_level"]), int(a["max_level"]), int(a["refer_level"]),
        int(a["refer_scale"]), bool(a.get("pixel_offset", False)),
        _ot._t(args[1]) if len(args) > 1 and args[1] is not None else None,
    )  # fmt: skip
    return list(multi), list(nums or []), restore


def _roi_pool(args, a):
    """``roi_pool(x, boxes, boxes_num)`` -> (each box's max pool, argmax). The argmax output
    (read only by Paddle's backward kernel) is not produced: an op reading it fails."""
    size = [int(a.get("pooled_height", 1)), int(a.get("pooled_width", 1))]
    out = _vision("roi_pool")(
        _ot._t(args[0]), _ot._t(args[1]), _ot._t(args[2]), size,
        float(a.get("spatial_scale", 1.0)),
    )  # fmt: skip
    return out, None


def _psroi_pool(args, a):
    """``psroi_pool(x, boxes, boxes_num)``: position-sensitive average pooling (R-FCN)."""
    size = [int(a.get("pooled_height", 1)), int(a.get("pooled_width", 1))]
    return _vision("psroi_pool")(
        _ot._t(args[0]), _ot._t(args[1]), _ot._t(args[2]), size,
        float(a.get("spatial_scale", 1.0)),
    )  # fmt: skip


def _deformable_conv(args, a):
    """``deformable_conv(x, offset, filter, mask)``: deformable convolution, v1 without the mask
    and v2 with it (the bias is a separate ``add``)."""
    x, offset, weight, mask = (args + [None] * 4)[:4]
    ints = lambda k, d: [int(v) for v in a.get(k, d)]  # noqa: E731
    return _vision("deform_conv2d")(
        _ot._t(x), _ot._t(offset), _ot._t(weight), None, ints("strides", [1, 1]),
        ints("paddings", [0, 0]), ints("dilations", [1, 1]),
        int(a.get("deformable_groups", 1)), int(a.get("groups", 1)), _ot._t(mask),
    )  # fmt: skip


def _nms_op(args, a):
    """``nms(boxes)``: greedy NMS of boxes already in score order -> the kept indices (int64);
    ``paddle.vision.ops.nms`` builds its per-category, top-k form from it."""
    return _vision("nms")(_ot._t(args[0]), float(a.get("threshold", 1.0)))


ROWS = {
    "pd_op.roi_pool": _ot.Row(_roi_pool),
    "pd_op.psroi_pool": _ot.Row(_psroi_pool),
    "pd_op.deformable_conv": _ot.Row(_deformable_conv),
    "pd_op.nms": _ot.Row(_nms_op),
    "pd_op.multiclass_nms3": _ot.Row(_multiclass_nms3),
    "pd_op.generate_proposals": _ot.Row(_generate_proposals),
    "pd_op.distribute_fpn_proposals": _ot.Row(_distribute_fpn_proposals),
    "pd_op.prior_box": _ot.Row(_prior_box),
    "pd_op.box_coder": _ot.Row(_box_coder),
    "pd_op.roi_align": _ot.Row(_roi_align),
    "pd_op.matrix_nms": _ot.Row(_matrix_nms),
    "pd_op.yolo_box": _ot.Row(_yolo_box),
}
