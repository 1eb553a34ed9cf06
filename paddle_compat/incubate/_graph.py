"""``paddle.incubate``'s graph and segment APIs: the names Paddle 2.4 moved to
``paddle.geometric``, kept as deprecated aliases (each call warns, as Paddle's do) with their
old argument names (``pool_type``, ``flag_perm_buffer``, ``flag_buffer_hashtable``)."""

from __future__ import annotations

from .. import geometric as _geometric
from .._core.tensor import Tensor
from ..utils.deprecated import deprecated


def _moved(update_to: str):
    """Paddle's deprecation of an incubate API that moved to ``update_to``."""

    def deco(fn):
        fn.__module__ = "paddle.incubate"
        return deprecated(
            since="2.4.0",
            update_to=update_to,
            level=1,
            reason=f"paddle.incubate.{fn.__name__} will be removed in future",
        )(fn)

    return deco


@_moved("paddle.geometric.send_u_recv")
def graph_send_recv(
    x: Tensor,
    src_index: Tensor,
    dst_index: Tensor,
    pool_type: str = "sum",
    out_size: int | Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """``paddle.geometric.send_u_recv`` with ``pool_type`` for ``reduce_op``."""
    if pool_type not in ("sum", "mean", "max", "min"):
        raise ValueError(
            f"pool_type should be `sum`, `mean`, `max` or `min`, but received {pool_type}"
        )
    return _geometric.send_u_recv(x, src_index, dst_index, reduce_op=pool_type, out_size=out_size)


@_moved("paddle.geometric.sample_neighbors")
def graph_sample_neighbors(
    row: Tensor,
    colptr: Tensor,
    input_nodes: Tensor,
    eids: Tensor | None = None,
    perm_buffer: Tensor | None = None,
    sample_size: int = -1,
    return_eids: bool = False,
    flag_perm_buffer: bool = False,
    name: str | None = None,
) -> tuple[Tensor, ...]:
    """``paddle.geometric.sample_neighbors`` (``perm_buffer`` is required when
    ``flag_perm_buffer`` is set, and unused)."""
    if return_eids and eids is None:
        raise ValueError("`eids` should not be None if `return_eids` is True.")
    if flag_perm_buffer and perm_buffer is None:
        raise ValueError("`perm_buffer` should not be None if `flag_perm_buffer` is True.")
    return _geometric.sample_neighbors(
        row, colptr, input_nodes, sample_size=sample_size, eids=eids, return_eids=return_eids
    )


@_moved("paddle.geometric.reindex_graph")
def graph_reindex(
    x: Tensor,
    neighbors: Tensor,
    count: Tensor,
    value_buffer: Tensor | None = None,
    index_buffer: Tensor | None = None,
    flag_buffer_hashtable: bool = False,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """``paddle.geometric.reindex_graph`` (the buffers are required when
    ``flag_buffer_hashtable`` is set, and unused)."""
    if flag_buffer_hashtable and (value_buffer is None or index_buffer is None):
        raise ValueError(
            "`value_buffer` and `index_buffer` should notbe None if `flag_buffer_hashtable` "
            "is True."
        )
    return _geometric.reindex_graph(x, neighbors, count)


def _segment(pool: str):
    target = getattr(_geometric, f"segment_{pool}")

    def segment(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
        return target(data, segment_ids)

    segment.__name__ = segment.__qualname__ = f"segment_{pool}"
    segment.__doc__ = f"``paddle.geometric.segment_{pool}`` (deprecated here)."
    return _moved(f"paddle.geometric.segment_{pool}")(segment)


segment_sum = _segment("sum")
segment_mean = _segment("mean")
segment_max = _segment("max")
segment_min = _segment("min")
