"""``paddle.geometric``: message passing (``send_u_recv``, ``send_ue_recv``, ``send_uv``),
segment pooling, graph reindexing and neighbor sampling (generated from the op registry;
the ops live in ``paddle_compat/_ops/geometric.py`` and ``geometric_sampling.py``)."""

from .._ops._methods import namespace as _namespace

globals().update(_namespace("paddle.geometric"))

__all__ = [
    "send_u_recv",
    "send_ue_recv",
    "send_uv",
    "segment_sum",
    "segment_mean",
    "segment_min",
    "segment_max",
    "reindex_graph",
    "reindex_heter_graph",
    "sample_neighbors",
    "weighted_sample_neighbors",
]
