"""``paddle.geometric`` graph reindexing and neighbor sampling: ``reindex_graph``,
``reindex_heter_graph``, ``sample_neighbors``, ``weighted_sample_neighbors`` and
``paddle.incubate.graph_khop_sampler``.

Their output sizes depend on the input values, so they run on the host (numpy) and only
eagerly; under ``to_static`` they raise an error naming the op. Nothing here has a gradient.

Randomness: Paddle's CPU sampling kernels seed a fresh ``std::mt19937`` from
``std::random_device`` on every call, so Paddle's samples are not reproducible even after
``paddle.seed``. Here the draws come from the global generator's host stream, so a seeded
program samples the same neighbors on every run (but not the ones Paddle happens to draw).
Uniform sampling keeps a uniformly random subset of ``sample_size`` neighbors in random order;
weighted sampling keeps the ``sample_size`` largest keys ``log2(u) / weight`` (Paddle's
A-Res keys) in ascending key order, as Paddle's heap returns them. A negative ``sample_size``
keeps every neighbor (Paddle's GPU kernels; its CPU kernels abort on the default -1).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._core import random as _random
from .._core import trace_state
from .._core.op_errors import leaf_dtype
from .._core.registry import op
from .._core.tensor import Tensor, to_device

_INDEX_DTYPES = ("int32", "int64")


def _dtype_name(t) -> str | None:
    d = leaf_dtype(t)
    return None if d is None else d.name


def _host(t: Tensor, api: str) -> np.ndarray:
    """The concrete value of ``t`` (flattened); under to_static an error naming the op."""
    if trace_state.is_tracer(t._value):
        raise trace_state.DataDependentError(
            f"{api} has a data-dependent output shape, so it cannot run inside "
            f"paddle.jit.to_static (input shape {list(t._value.shape)}): sample or reindex "
            "the graph outside the compiled function (e.g. in the data loader), or call the "
            "function with full_graph=False."
        )
    return np.asarray(trace_state.read(t)).reshape(-1)


def _out(a: np.ndarray, dtype) -> Tensor:
    return Tensor(to_device(np.asarray(a).astype(dtype)))


def _same_dtype(kernel: str, ref, named: dict) -> None:
    """Tensors that must share the dtype of ``ref`` (Paddle's kernels read them as one type)."""
    want = _dtype_name(ref)
    for arg, t in named.items():
        if t is not None and _dtype_name(t) != want:
            raise ValueError(
                f"(InvalidArgument) {kernel}: {arg} must have the same dtype as the graph "
                f"indices ({want}), but received {_dtype_name(t)}."
            )


# -- reindexing -----------------------------------------------------------------------------
def _reindex(x: np.ndarray, neighbors: np.ndarray, count: np.ndarray):
    """Paddle's CPU reindexing: ``x``'s nodes keep their positions (a repeated node maps to its
    last position), new neighbor nodes follow in order of first appearance; edge ``j`` of
    count group ``g`` (``len(count) // len(x)`` groups of ``len(x)``) points at ``x[j % bs]``."""
    bs = x.size
    values, first, inverse = np.unique(
        np.concatenate([x, neighbors]), return_index=True, return_inverse=True
    )
    ids = np.full(values.size, -1, np.int64)
    np.maximum.at(ids, inverse[:bs], np.arange(bs))
    new = np.flatnonzero(ids < 0)
    new = new[np.argsort(first[new], kind="stable")]
    ids[new] = bs + np.arange(new.size)
    src = ids[inverse[bs:]]
    groups = count.size // bs
    dst = np.repeat(np.tile(ids[inverse[:bs]], groups), count[: groups * bs])
    return src, dst, np.concatenate([x, values[new]])


def _check_counts(bs: int, count: np.ndarray, n_neighbors: int) -> None:
    if bs == 0:
        raise ValueError("(InvalidArgument) The first of dims should not be equal to 0.")
    if count.size % bs:
        raise ValueError(
            f"(InvalidArgument) reindex_graph: count has {count.size} entries, which is not a "
            f"multiple of the {bs} nodes of x (one count per node and edge type)."
        )
    if int(count.sum()) != n_neighbors:
        raise ValueError(
            f"(InvalidArgument) reindex_graph: the counts sum to {int(count.sum())}, but "
            f"neighbors has {n_neighbors} nodes."
        )


def _reindex_tensors(x: Tensor, neighbors: np.ndarray, count: np.ndarray, api: str):
    xs = _host(x, api)
    _check_counts(xs.size, count, neighbors.size)
    src, dst, nodes = _reindex(xs, neighbors.astype(xs.dtype), count)
    dt = xs.dtype
    return _out(src, dt), _out(dst, dt), _out(nodes, dt)


def _check_reindex_x(x) -> None:
    """Paddle's graph_reindex takes x 1-D, or 2-D with a last dim of 1."""
    if x.ndim == 2 and x.shape[1] != 1:
        raise ValueError(
            f"(InvalidArgument) The last dim of X should be 1 when it is 2D, but we get "
            f"{x.shape[1]}"
        )
    if x.ndim != 2 and x.ndim != 1:
        raise ValueError(
            f"(InvalidArgument) The X should be 1D, when it is not 2D, but we get {x.ndim}"
        )


def _check_reindex_dtypes(x, neighbors, count) -> None:
    _same_dtype("graph_reindex", x, {"neighbors": neighbors})
    if _dtype_name(count) != "int32":
        raise ValueError(
            f"(InvalidArgument) graph_reindex: count must be an int32 Tensor, but received "
            f"{_dtype_name(count)}."
        )


@op(
    "reindex_graph",
    tensors=("x", "neighbors", "count"),
    namespaces=("paddle.geometric",),
    method=None,
    composite=True,
    dtypes=_INDEX_DTYPES,
    kernel="graph_reindex",
)
def reindex_graph(
    x: Tensor,
    neighbors: Tensor,
    count: Tensor,
    value_buffer: Tensor | None = None,
    index_buffer: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """Renumber the center nodes ``x`` and their sampled ``neighbors`` from 0: returns
    (reindexed sources, reindexed destinations, the original id of each new index).
    ``value_buffer``/``index_buffer`` (Paddle's GPU hash table) are accepted and unused."""
    _check_reindex_x(x)
    _check_reindex_dtypes(x, neighbors, count)
    api = "paddle.geometric.reindex_graph"
    return _reindex_tensors(x, _host(neighbors, api), _host(count, api), api)


@op(
    "reindex_heter_graph",
    tensors=("x", "neighbors", "count"),
    namespaces=("paddle.geometric",),
    method=None,
    composite=True,
    dtypes=_INDEX_DTYPES,
    kernel="graph_reindex",
)
def reindex_heter_graph(
    x: Tensor,
    neighbors: Sequence[Tensor],
    count: Sequence[Tensor],
    value_buffer: Tensor | None = None,
    index_buffer: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """``reindex_graph`` over several edge types: ``neighbors[i]``/``count[i]`` are the
    neighbors of ``x`` under edge type ``i``, reindexed together."""
    api = "paddle.geometric.reindex_heter_graph"
    _check_reindex_x(x)
    for arg, v in (("neighbors", neighbors), ("count", count)):
        if not isinstance(v, list | tuple):
            raise ValueError(
                f"(InvalidArgument) reindex_heter_graph: {arg} must be a list of Tensors, but "
                f"received {type(v).__name__}."
            )
    for nb, ct in zip(neighbors, count):
        _check_reindex_dtypes(x, nb, ct)
    nbs = np.concatenate([_host(t, api) for t in neighbors]) if neighbors else np.zeros(0)
    cts = np.concatenate([_host(t, api) for t in count]) if count else np.zeros(0, np.int32)
    return _reindex_tensors(x, nbs, cts, api)


# -- neighbor sampling ----------------------------------------------------------------------
def _csc_edges(colptr: np.ndarray, nodes: np.ndarray, api: str):
    """For each input node its in-edge range in CSC form: (edge positions, owning node index,
    rank of the edge within its node, cap per node)."""
    n = colptr.size - 1
    bad = (nodes < 0) | (nodes >= n)
    if bad.any():
        v = int(nodes[np.flatnonzero(bad)[0]])
        raise IndexError(
            f"(OutOfRange) {api}: every input node must be in [0, {n}) (len(colptr) - 1), but "
            f"received {v}."
        )
    begin, cap = colptr[nodes], colptr[nodes + 1] - colptr[nodes]
    owner = np.repeat(np.arange(nodes.size), cap)
    starts = np.cumsum(cap) - cap
    rank = np.arange(owner.size) - np.repeat(starts, cap)
    return begin[owner] + rank, owner, rank, cap


def _draw(n: int) -> np.ndarray:
    """``n`` uniform floats in [0, 1) from the global generator's host stream."""
    if n == 0:
        return np.zeros(0, np.float32)
    return _random.default_generator.engine.canonical(n, np.float32)


def _pick(owner, rank, keep, order_key):
    """Edges with ``rank < keep[owner]`` after sorting each node's edges by ``order_key``."""
    order = np.lexsort((order_key, owner))
    chosen = order[rank < keep[owner]]
    return chosen


def _sample(
    row, colptr, nodes, sample_size: int, weights, api: str
) -> tuple[np.ndarray, np.ndarray]:
    """(chosen edge positions in output order, count per node)."""
    pos, owner, rank, cap = _csc_edges(colptr, nodes, api)
    keep = cap if sample_size < 0 else np.minimum(cap, sample_size)
    sampled = (cap > keep)[owner]
    key = rank.astype(np.float64)
    if sampled.any():
        u = _draw(int(sampled.sum())).astype(np.float64)
        if weights is None:
            key[sampled] = u
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                a_res = np.log2(u) * (1.0 / weights[pos[sampled]].astype(np.float64))
            key[sampled] = -a_res  # the largest keys first
    chosen = _pick(owner, rank, keep, key)
    if weights is not None and sampled.any():  # ascending key order, as Paddle's heap pops
        back = np.where(sampled[chosen], -key[chosen], rank[chosen].astype(np.float64))
        chosen = chosen[np.lexsort((back, owner[chosen]))]
    return pos[chosen], keep.astype(np.int32)


def _sample_outputs(row, colptr, input_nodes, sample_size, eids, return_eids, weights, api):
    rows_, ptr, nodes = (_host(t, api) for t in (row, colptr, input_nodes))
    w = None if weights is None else _host(weights, api)
    chosen, counts = _sample(rows_, ptr, nodes, int(sample_size), w, api)
    dt = rows_.dtype
    outs = [_out(rows_[chosen], dt), _out(counts, np.int32)]
    if return_eids:
        outs.append(_out(_host(eids, api)[chosen], dt))
    return tuple(outs)


def _check_sampler_args(kernel: str, row, colptr, input_nodes, eids, return_eids) -> None:
    """The kernel's dtype is that of ``row`` (``input_nodes`` for the weighted sampler): the
    other index Tensors must share it."""
    if return_eids and eids is None:
        raise ValueError("`eids` should not be None if `return_eids` is True.")
    named = {"row": row, "colptr": colptr, "input_nodes": input_nodes}
    if return_eids:
        named["eids"] = eids
    _same_dtype(kernel, input_nodes if kernel == "weighted_sample_neighbors" else row, named)


@op(
    "sample_neighbors",
    tensors=("row", "colptr", "input_nodes"),
    namespaces=("paddle.geometric",),
    method=None,
    composite=True,
    dtypes=_INDEX_DTYPES,
    kernel="graph_sample_neighbors",
)
def sample_neighbors(
    row: Tensor,
    colptr: Tensor,
    input_nodes: Tensor,
    sample_size: int = -1,
    eids: Tensor | None = None,
    return_eids: bool = False,
    perm_buffer: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, ...]:
    """Sample up to ``sample_size`` in-neighbors of each input node of a CSC graph (``row``,
    ``colptr``) uniformly without replacement: (neighbors, int32 count per node[, edge ids]).
    ``perm_buffer`` (Paddle's GPU Fisher-Yates buffer) is accepted and unused."""
    _check_sampler_args("graph_sample_neighbors", row, colptr, input_nodes, eids, return_eids)
    return _sample_outputs(
        row,
        colptr,
        input_nodes,
        sample_size,
        eids,
        return_eids,
        None,
        "paddle.geometric.sample_neighbors",
    )


@op(
    "weighted_sample_neighbors",
    tensors=("input_nodes", "row", "colptr", "edge_weight"),  # the kernel's dtype: input_nodes
    namespaces=("paddle.geometric",),
    method=None,
    composite=True,
    dtypes=_INDEX_DTYPES,
)
def weighted_sample_neighbors(
    row: Tensor,
    colptr: Tensor,
    edge_weight: Tensor,
    input_nodes: Tensor,
    sample_size: int = -1,
    eids: Tensor | None = None,
    return_eids: bool = False,
    name: str | None = None,
) -> tuple[Tensor, ...]:
    """Sample up to ``sample_size`` in-neighbors of each input node without replacement,
    with probability by ``edge_weight`` (float32): (neighbors, int32 counts[, edge ids])."""
    _check_sampler_args("weighted_sample_neighbors", row, colptr, input_nodes, eids, return_eids)
    if _dtype_name(edge_weight) != "float32":
        raise ValueError(
            "(InvalidArgument) weighted_sample_neighbors: edge_weight must be a float32 "
            f"Tensor, but received {_dtype_name(edge_weight)}."
        )
    return _sample_outputs(
        row,
        colptr,
        input_nodes,
        sample_size,
        eids,
        return_eids,
        edge_weight,
        "paddle.geometric.weighted_sample_neighbors",
    )


# -- k-hop sampling (paddle.incubate.graph_khop_sampler) ------------------------------------
def _khop(row, colptr, x, sample_sizes, eids, api):
    """Sample layer by layer from the frontier (the first layer: ``x`` with consecutive
    repeats dropped; then the new neighbors of the previous frontier, sorted), then reindex
    all sampled edges at once, the frontiers' nodes first (Paddle's CPU kernel)."""
    frontier = x[np.concatenate([[True], x[1:] != x[:-1]])] if x.size else x
    dst_nodes, srcs, counts, eid_parts = [], [], [], []
    for layer, size in enumerate(sample_sizes):
        if frontier.size == 0:
            break
        chosen, cnt = _sample(row, colptr, frontier, int(size), None, api)
        if layer == 0 and cnt.sum() == 0:
            raise ValueError(
                "(InvalidArgument) The input nodes `X` should have at least one neighbors, but "
                "none of the input nodes have neighbors."
            )
        dst_nodes.append(frontier)
        srcs.append(row[chosen])
        counts.append(cnt)
        if eids is not None:
            eid_parts.append(eids[chosen])
        frontier = np.setdiff1d(np.unique(row[chosen]), frontier)
    dst = np.concatenate(dst_nodes)
    src, dst_ids, nodes = _reindex(dst, np.concatenate(srcs), np.concatenate(counts))
    # every input node is in the first frontier: it maps to its last position there
    values, inverse = np.unique(np.concatenate([dst, x]), return_inverse=True)
    last = np.full(values.size, -1, np.int64)
    np.maximum.at(last, inverse[: dst.size], np.arange(dst.size))
    reindex_x = last[inverse[dst.size :]]
    eid_out = np.concatenate(eid_parts) if eids is not None else None
    return src, dst_ids, nodes, reindex_x, eid_out


@op(
    "graph_khop_sampler",
    tensors=("row", "colptr", "input_nodes"),
    namespaces=("paddle.incubate",),
    method=None,
    composite=True,
    dtypes=_INDEX_DTYPES,
)
def graph_khop_sampler(
    row: Tensor,
    colptr: Tensor,
    input_nodes: Tensor,
    sample_sizes: Sequence[int],
    sorted_eids: Tensor | None = None,
    return_eids: bool = False,
    name: str | None = None,
) -> tuple[Tensor, ...]:
    """Multi-hop neighbor sampling with ``sample_sizes[i]`` neighbors per node at hop ``i``,
    reindexed: (edge_src [E, 1], edge_dst [E, 1], sample_index, reindex_nodes[, edge_eids]).
    Paddle's CPU kernel crashes beyond one hop whenever a frontier differs in size from
    ``input_nodes``; here every hop samples its whole frontier."""
    api = "paddle.incubate.graph_khop_sampler"
    if return_eids and sorted_eids is None:
        raise ValueError("`sorted_eid` should not be None if return_eids is True.")
    if not len(sample_sizes):
        raise ValueError(
            "(InvalidArgument) The parameter 'sample_sizes' in GraphSampleOp must be set. But "
            "received 'sample_sizes' is empty."
        )
    named = {"colptr": colptr, "input_nodes": input_nodes}
    if return_eids:
        named["sorted_eids"] = sorted_eids
    _same_dtype("graph_khop_sampler", row, named)
    for arg, t in (("Row", row), ("Col_Ptr", colptr), ("Input_Node", input_nodes)):
        if 0 in list(t.shape):
            raise ValueError(f"(InvalidArgument) The size of {arg}(X) should not be 0.")
    r, ptr, x = (_host(t, api) for t in (row, colptr, input_nodes))
    e = _host(sorted_eids, api) if return_eids else None
    src, dst, nodes, reindex_x, eid_out = _khop(r, ptr, x, sample_sizes, e, api)
    dt = r.dtype
    outs = [_out(src.reshape(-1, 1), dt), _out(dst.reshape(-1, 1), dt), _out(nodes, dt)]
    outs.append(_out(reindex_x, dt))
    if return_eids:
        outs.append(_out(eid_out, dt))
    return tuple(outs)
