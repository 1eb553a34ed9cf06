"""``paddle.incubate``: ``nn.FusedLinear``; the graph and segment ops Paddle moved to
``paddle.geometric`` (deprecated aliases: ``graph_send_recv``, ``graph_sample_neighbors``,
``graph_reindex``, ``segment_sum/mean/max/min``), ``graph_khop_sampler``, ``identity_loss``
the fused masked softmaxes, and the optimizers ``LookAhead`` and ``ModelAverage``. The rest of
Paddle's incubate APIs are missing (porting guide)."""

from .._ops._methods import namespace as _namespace
from . import (
    _fused_ops,  # noqa: F401  (registers identity_loss and the fused softmaxes)
    nn,
    optimizer,  # noqa: F401  (paddle.incubate.optimizer)
)
from ._graph import (
    graph_reindex,
    graph_sample_neighbors,
    graph_send_recv,
    segment_max,
    segment_mean,
    segment_min,
    segment_sum,
)
from .optimizer import LookAhead, ModelAverage

globals().update(_namespace("paddle.incubate"))

__all__ = [
    "nn",
    "LookAhead",
    "ModelAverage",
    "softmax_mask_fuse_upper_triangle",
    "softmax_mask_fuse",
    "graph_send_recv",
    "graph_khop_sampler",
    "graph_sample_neighbors",
    "graph_reindex",
    "segment_sum",
    "segment_mean",
    "segment_max",
    "segment_min",
    "identity_loss",
]
