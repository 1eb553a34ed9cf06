"""paddle.vision.ops: detection and region ops. The ops come from the op registry (namespace
"paddle.vision.ops"); the Layers are classes of the topic files."""

from __future__ import annotations

from ..._ops._methods import namespace as _namespace
from . import _boxes, _deform, _image_io, _proposals, _roi, _yolo  # noqa: F401  (registers)
from ._deform import ConvNormActivation as ConvNormActivation  # Paddle defines it here too
from ._deform import DeformConv2D
from ._roi import PSRoIPool, RoIAlign, RoIPool

globals().update(_namespace("paddle.vision.ops"))

__all__ = [
    "yolo_loss",
    "yolo_box",
    "prior_box",
    "box_coder",
    "deform_conv2d",
    "DeformConv2D",
    "distribute_fpn_proposals",
    "generate_proposals",
    "read_file",
    "decode_jpeg",
    "roi_pool",
    "RoIPool",
    "psroi_pool",
    "PSRoIPool",
    "roi_align",
    "RoIAlign",
    "nms",
    "matrix_nms",
]
