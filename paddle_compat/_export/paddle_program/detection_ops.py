"""Program rows for detection post-processing: ``multiclass_nms3`` (what PaddleDetection's
exports end with). Its output size depends on the scores, so it runs on the host (numpy) with
concrete inputs: a compiled program cannot hold it (``DataDependentStep``), and the Predictor
runs such a program in compiled segments with this op between them (``segments.HOST_OPS``).

Paddle's CPU kernel, per image: for each class but ``background_label``, the boxes scoring
above ``score_threshold``, the best ``nms_top_k`` of them by score, then greedy NMS at
``nms_threshold`` (shrunk by ``nms_eta`` after each kept box while above 0.5); over all
classes, the best ``keep_top_k`` by score. Rows ``[label, score, x1, y1, x2, y2]`` grouped by
label (ascending), best score first within one; ``index``: each row's box in the batch's
flattened boxes; ``nms_rois_num``: rows per image.
"""

from __future__ import annotations

import numpy as np

from ..._core.tensor import Tensor
from . import op_table as _ot
from .program import DataDependentStep, ProgramError


def _iou(a: np.ndarray, b: np.ndarray, normalized: bool) -> np.ndarray:
    """Jaccard overlap of each box of ``a`` with each of ``b`` ([len(a), len(b)], float32 as
    Paddle's kernel): 0 for boxes apart; unnormalized (pixel) sizes count both ends (+1)."""
    off = np.float32(0.0 if normalized else 1.0)
    a, b = a[:, None, :], b[None, :, :]

    def area(x):
        bad = (x[..., 2] < x[..., 0]) | (x[..., 3] < x[..., 1])
        return np.where(bad, 0, (x[..., 2] - x[..., 0] + off) * (x[..., 3] - x[..., 1] + off))

    apart = (b[..., 0] > a[..., 2]) | (b[..., 2] < a[..., 0])
    apart |= (b[..., 1] > a[..., 3]) | (b[..., 3] < a[..., 1])
    iw = np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]) + off
    ih = np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]) + off
    inter = iw * ih
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area(a) + area(b) - inter)
    return np.where(apart, np.float32(0), iou)


def _nms(boxes, scores, a) -> list[int]:
    """One class of one image: the kept box indices, best first."""
    idx = np.flatnonzero(scores > a["score_threshold"])
    idx = idx[np.argsort(-scores[idx], kind="stable")]
    if a["nms_top_k"] > -1:
        idx = idx[: a["nms_top_k"]]
    iou = _iou(boxes[idx], boxes[idx], a["normalized"])
    kept, thresh = [], a["nms_threshold"]
    if a["nms_eta"] >= 1:  # a fixed threshold: each kept box suppresses its overlaps
        out = np.zeros(len(idx), bool)
        for j in range(len(idx)):
            if not out[j]:
                kept.append(j)
                out |= iou[j] > thresh
        return [int(idx[j]) for j in kept]
    for j in range(len(idx)):
        if not kept or np.all(iou[j, kept] <= thresh):
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
    """``multiclass_nms3(bboxes [N, M, 4], scores [N, C, M], rois_num)`` -> (out [K, 6],
    index [K, 1] int32, nms_rois_num [N] int32)."""
    if len(args) > 2 and args[2] is not None:
        raise ProgramError(
            "multiclass_nms3 with rois_num (boxes per class from a two-stage detector) is not "
            "supported."
        )
    boxes = _host(args[0], "multiclass_nms3").astype(np.float32)
    scores = _host(args[1], "multiclass_nms3").astype(np.float32)
    if boxes.ndim != 3 or scores.ndim != 3 or boxes.shape[1] != scores.shape[2]:
        raise ValueError(
            f"(InvalidArgument) multiclass_nms3 takes bboxes [N, M, 4] and scores [N, C, M], "
            f"got {list(boxes.shape)} and {list(scores.shape)}."
        )
    at = _attrs(a)
    rows, index, counts = [], [], []
    m = boxes.shape[1]
    for n in range(boxes.shape[0]):
        picked = []  # (score, label, box index)
        for c in range(scores.shape[1]):
            if c != at["background_label"]:
                picked += [(scores[n, c, i], c, i) for i in _nms(boxes[n], scores[n, c], at)]
        if -1 < at["keep_top_k"] < len(picked):
            order = sorted(range(len(picked)), key=lambda k: -picked[k][0])
            picked = [picked[k] for k in order[: at["keep_top_k"]]]
        picked.sort(key=lambda p: p[1])  # by label; stable: best first within one
        for s, c, i in picked:
            rows.append([c, s, *boxes[n, i]])
            index.append([n * m + i])
        counts.append(len(picked))
    out = np.asarray(rows, np.float32).reshape(-1, 6)
    return (
        Tensor(out),
        Tensor(np.asarray(index, np.int32).reshape(-1, 1)),
        Tensor(np.asarray(counts, np.int32)),
    )


ROWS = {"pd_op.multiclass_nms3": _ot.Row(_multiclass_nms3)}
