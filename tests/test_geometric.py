"""paddle.geometric beyond the goldens (tests/cases/geometric.py): to_static (message passing
compiles with a static out_size; data-dependent ops raise naming the op), seeded sampling,
behaviour where Paddle's CPU kernels crash or read out of bounds, the causal fused softmax
(GPU-only in Paddle) and Paddle's signatures."""

from __future__ import annotations

import inspect
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import paddle.geometric as G
import paddle.incubate as I
import pytest

import paddle
from paddle_compat._core.tensor import Tensor
from paddle_compat._core.trace_state import DataDependentError

X = np.array([[0, 2, 3], [1, 4, 5], [2, 6, 7]], "float32")
SRC, DST = np.array([0, 1, 2, 0], "int32"), np.array([1, 2, 1, 0], "int32")
ROW = np.array([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7], "int64")
COLPTR = np.array([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13], "int64")
NODES = np.array([0, 8, 1, 2], "int64")


def t(a, dtype=None):
    return paddle.to_tensor(np.asarray(a) if dtype is None else np.asarray(a).astype(dtype))


def _graph():
    return t(ROW), t(COLPTR), t(NODES)


# -- to_static --------------------------------------------------------------------------------
@pytest.mark.parametrize("reduce_op", ["sum", "mean", "max", "min"])
def test_message_passing_compiles_with_static_out_size(reduce_op):
    src, dst, y = t(SRC), t(DST), t([1.0, 2.0, 3.0, 4.0], "float32")

    def f(x):
        a = G.send_u_recv(x, src, dst, reduce_op, out_size=5)
        b = G.send_ue_recv(x, y, src, dst, "mul", reduce_op)
        return a.sum() + b.sum() + G.send_uv(x, x, src, dst, "div").sum()

    x = t(X)
    x.stop_gradient = False
    eager = f(x)
    (gx,) = paddle.grad(eager, x)
    compiled = paddle.jit.to_static(f, full_graph=True)
    np.testing.assert_allclose(compiled(x).numpy(), eager.numpy(), rtol=1e-6)
    np.testing.assert_allclose(compiled(t(X * 2)).numpy(), f(t(X * 2)).numpy(), rtol=1e-6)
    assert gx.shape == [3, 3]


def test_traced_out_size_tensor_names_the_op():
    src, dst = t(SRC), t(DST)
    with pytest.raises(DataDependentError, match="send_u_recv: out_size"):
        jax.jit(lambda a, n: G.send_u_recv(Tensor(a), src, dst, out_size=Tensor(n))._value)(
            jnp.asarray(X), jnp.asarray(4)
        )


def _ids(d):
    return paddle.cast(d[:, 0], "int64")


@pytest.mark.parametrize(
    "fn,name",
    [
        (lambda d: G.segment_sum(d, _ids(d)), "paddle.geometric.segment_sum"),
        (lambda d: G.segment_max(d, _ids(d)), "paddle.geometric.segment_max"),
        (lambda d: G.reindex_graph(_ids(d), t([1, 2]), t([1, 1, 0], "int32")), "reindex_graph"),
        (lambda d: G.sample_neighbors(t(ROW), t(COLPTR), _ids(d), 2), "sample_neighbors"),
    ],
)
def test_data_dependent_ops_raise_under_to_static(fn, name):
    f = paddle.jit.to_static(fn, full_graph=True)
    f(t(X))  # the first call runs eagerly
    with pytest.raises(DataDependentError, match=name):
        f(t(X))


def test_segment_hint_compiles():
    """The static alternative the segment ops' error names: send_u_recv with out_size."""

    def f(d):
        ids = _ids(d)
        return G.send_u_recv(d, paddle.arange(3), ids, "mean", out_size=8)

    compiled = paddle.jit.to_static(f, full_graph=True)
    for k in (1.0, 2.0, 3.0):
        data = t(X * k)
        ref = G.segment_mean(data, _ids(data)).numpy()
        out = compiled(data).numpy()
        np.testing.assert_allclose(out[: len(ref)], ref)
        assert (out[len(ref) :] == 0).all()


def test_segment_to_static_fallback_runs_eagerly():
    f = paddle.jit.to_static(lambda d: G.segment_sum(d, _ids(d)), full_graph=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = [f(t(X)).numpy() for _ in range(2)]
    np.testing.assert_allclose(outs[1], [[0, 2, 3], [1, 4, 5], [2, 6, 7]])


# -- our checks where Paddle reads out of bounds or aborts -------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda: G.send_ue_recv(
            t(X), t([1.0, 1, 1, 1], "float32"), t([0, 1, 2, 3], "int32"), t(DST)
        ),
        lambda: G.send_uv(t(X), t(X), t([5], "int32"), t([0], "int32")),
        lambda: G.send_uv(t(X), t(X[:2]), t([0], "int32"), t([2], "int32")),
        lambda: G.sample_neighbors(t(ROW), t(COLPTR), t([10]), 1),
    ],
)
def test_out_of_range_indices_raise_index_error(call):
    with pytest.raises(IndexError, match="OutOfRange"):
        call()


@pytest.mark.parametrize(
    "count,match",
    [([2, 3, 1], "counts sum to 6"), ([2, 3, 5], "counts sum to 10"), ([2, 5], "multiple")],
)
def test_reindex_rejects_counts_that_do_not_match(count, match):
    with pytest.raises(ValueError, match=match):
        G.reindex_graph(t([0, 1, 2]), t([8, 9, 0, 4, 7, 6, 7]), t(count, "int32"))


def test_default_sample_size_keeps_every_neighbor():
    nb, cnt = G.sample_neighbors(*_graph())  # Paddle's CPU kernel aborts on the default -1
    assert nb.numpy().tolist() == [3, 7, 9, 7, 0, 9, 1] and cnt.numpy().tolist() == [2, 2, 2, 1]
    r, c, n = _graph()
    nb, cnt = G.weighted_sample_neighbors(r, c, t(np.ones(13, "float32")), n)
    assert nb.numpy().tolist() == [3, 7, 9, 7, 0, 9, 1]
    nb, cnt = G.weighted_sample_neighbors(r, c, t(np.ones(13, "float32")), n, sample_size=0)
    assert nb.shape == [0] and cnt.numpy().tolist() == [0, 0, 0, 0]  # Paddle segfaults


# -- sampling ---------------------------------------------------------------------------------
@pytest.mark.parametrize("weighted", [False, True])
def test_sampling_is_reproducible_after_seed(weighted):
    row, colptr, nodes = t(ROW), t(COLPTR), t(np.repeat(NODES, 8))
    w = t(np.linspace(0.1, 1.3, 13).astype("float32"))

    def draw():
        if weighted:
            return G.weighted_sample_neighbors(row, colptr, w, nodes, 1)[0].numpy()
        return G.sample_neighbors(row, colptr, nodes, 1)[0].numpy()

    paddle.seed(7)
    a, b = draw(), draw()
    paddle.seed(7)
    assert (draw() == a).all()
    assert not (a == b).all()  # consecutive calls draw new samples
    for node, got in zip(np.repeat(NODES, 8), a):
        assert got in ROW[COLPTR[node] : COLPTR[node + 1]]


def test_weighted_sampling_follows_the_weights():
    paddle.seed(3)
    w = np.ones(13, "float32")
    w[0], w[1] = 9.0, 1.0  # node 0's in-edges: from 3 (weight 9) and from 7 (weight 1)
    nb, _ = G.weighted_sample_neighbors(t(ROW), t(COLPTR), t(w), t(np.zeros(2000, "int64")), 1)
    share = (nb.numpy() == 3).mean()
    assert 0.86 < share < 0.94  # P(first key wins) = 9 / 10


def test_uniform_sampling_keeps_distinct_neighbors():
    paddle.seed(5)
    nb, cnt = G.sample_neighbors(t(ROW), t(COLPTR), t([5, 5, 6]), 2)
    assert cnt.numpy().tolist() == [2, 2, 2]
    for pair, node in zip(nb.numpy().reshape(3, 2), [5, 5, 6]):
        assert sorted(pair.tolist()) == sorted(ROW[COLPTR[node] : COLPTR[node + 1]].tolist())


def test_khop_samples_every_hop():
    """Two and three hops (Paddle's CPU kernel crashes when a frontier's size differs from the
    input's); sample sizes above every degree keep all edges, so the result is exact."""
    row, colptr, _ = _graph()
    src, dst, index, rx = I.graph_khop_sampler(row, colptr, t([0, 8, 1, 2]), [5, 5])
    assert src.numpy().ravel().tolist() == [4, 5, 6, 5, 0, 6, 2, 7]
    assert dst.numpy().ravel().tolist() == [0, 0, 1, 1, 2, 2, 3, 4]
    assert index.numpy().tolist() == [0, 8, 1, 2, 3, 7, 9, 4] and rx.numpy().tolist() == [
        0,
        1,
        2,
        3,
    ]
    src, dst, index, rx = I.graph_khop_sampler(row, colptr, t([0]), [5, 5, 5])
    assert src.numpy().ravel().tolist() == [1, 2, 3, 4]
    assert dst.numpy().ravel().tolist() == [0, 0, 1, 3]
    assert index.numpy().tolist() == [0, 3, 7, 4, 2] and rx.numpy().tolist() == [0]


# -- fused softmax ----------------------------------------------------------------------------
def test_softmax_mask_fuse_upper_triangle_is_a_causal_softmax():
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((2, 2, 4, 4)).astype("float32")
    x = t(xs)
    x.stop_gradient = False
    out = I.softmax_mask_fuse_upper_triangle(x)
    masked = np.where(np.tril(np.ones((4, 4), bool)), xs, -np.inf)
    ref = np.exp(masked - masked.max(-1, keepdims=True))
    ref /= ref.sum(-1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6, atol=1e-7)
    (out * t(np.arange(4, dtype="float32"))).sum().backward()
    assert np.all(np.triu(x.grad.numpy(), 1) == 0)  # no gradient above the diagonal
    with pytest.raises(ValueError, match="4D"):
        I.softmax_mask_fuse_upper_triangle(t(xs[0]))


# -- signatures (Paddle 3.3.1's inspect.signature: names and defaults) -----------------------
SIGNATURES = {
    G.send_u_recv: "x src_index dst_index reduce_op='sum' out_size=None name=None",
    G.send_ue_recv: "x y src_index dst_index message_op='add' reduce_op='sum' out_size=None "
    "name=None",
    G.send_uv: "x y src_index dst_index message_op='add' name=None",
    G.segment_sum: "data segment_ids name=None",
    G.segment_min: "data segment_ids name=None",
    G.reindex_graph: "x neighbors count value_buffer=None index_buffer=None name=None",
    G.reindex_heter_graph: "x neighbors count value_buffer=None index_buffer=None name=None",
    G.sample_neighbors: "row colptr input_nodes sample_size=-1 eids=None return_eids=False "
    "perm_buffer=None name=None",
    G.weighted_sample_neighbors: "row colptr edge_weight input_nodes sample_size=-1 eids=None "
    "return_eids=False name=None",
    I.graph_send_recv: "x src_index dst_index pool_type='sum' out_size=None name=None",
    I.graph_sample_neighbors: "row colptr input_nodes eids=None perm_buffer=None "
    "sample_size=-1 return_eids=False flag_perm_buffer=False name=None",
    I.graph_reindex: "x neighbors count value_buffer=None index_buffer=None "
    "flag_buffer_hashtable=False name=None",
    I.graph_khop_sampler: "row colptr input_nodes sample_sizes sorted_eids=None "
    "return_eids=False name=None",
    I.segment_mean: "data segment_ids name=None",
    I.identity_loss: "x reduction='none'",
    I.softmax_mask_fuse: "x mask name=None",
    I.softmax_mask_fuse_upper_triangle: "x",
}


@pytest.mark.parametrize("fn", list(SIGNATURES), ids=lambda f: f.__name__)
def test_signature_matches_paddle(fn):
    params = inspect.signature(fn).parameters.values()
    got = " ".join(p.name if p.default is p.empty else f"{p.name}={p.default!r}" for p in params)
    assert got == SIGNATURES[fn]


def test_public_names_match_paddle():
    assert sorted(G.__all__) == sorted(
        "send_u_recv send_ue_recv send_uv segment_sum segment_mean segment_min segment_max "
        "reindex_graph reindex_heter_graph sample_neighbors weighted_sample_neighbors".split()
    )
    assert all(callable(getattr(G, n)) for n in G.__all__)
