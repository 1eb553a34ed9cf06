"""paddle.static.nn: layers as functions for static Programs, and control flow."""

from .._extras import create_parameter, py_func
from ._static_flow import case, cond, switch_case, while_loop
from .common import (
    batch_norm,
    conv2d,
    conv2d_transpose,
    embedding,
    fc,
    group_norm,
    instance_norm,
    layer_norm,
    prelu,
)

__all__ = [
    "batch_norm", "case", "cond", "conv2d", "conv2d_transpose", "create_parameter",
    "embedding", "fc", "group_norm", "instance_norm", "layer_norm", "prelu", "py_func",
    "switch_case", "while_loop",
]  # fmt: skip
