"""paddle.static.nn: layers as functions for static Programs, and control flow."""

from ._static_flow import case, cond, switch_case, while_loop
from .common import batch_norm, conv2d, embedding, fc, layer_norm

__all__ = [
    "batch_norm", "case", "cond", "conv2d", "embedding", "fc", "layer_norm", "switch_case",
    "while_loop",
]  # fmt: skip
