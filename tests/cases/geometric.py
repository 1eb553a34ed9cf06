"""paddle.geometric (message passing, segment pooling, reindexing, neighbor sampling) and the
incubate graph/segment ops, identity_loss and softmax_mask_fuse: values, gradients, dtypes,
shapes, empty destinations and errors (goldens from real Paddle). Paddle's CPU samplers seed
from std::random_device, so only their deterministic facts are compared (every neighbor kept
when sample_size >= the degree; counts; sampled neighbors are real neighbors)."""

import warnings

import numpy as np
import paddle.geometric as G
from _util import backprop, expect_error, randn

import paddle

X = np.array([[0, 2, 3], [1, 4, 5], [2, 6, 7]], "float32")
SRC = np.array([0, 1, 2, 0], "int32")
DST = np.array([1, 2, 1, 0], "int32")
# 6 nodes, 9 edges; node 4 receives nothing, node 1 three messages
GSRC = np.array([0, 1, 2, 3, 5, 0, 2, 4, 1], "int64")
GDST = np.array([1, 1, 0, 2, 3, 1, 5, 0, 2], "int64")
REDUCE = ("sum", "mean", "max", "min")
MESSAGE = ("add", "sub", "mul", "div")
SEGMENTS = ("segment_sum", "segment_mean", "segment_max", "segment_min")
# CSC graph of Paddle's sampling examples: in-neighbors of node i are row[colptr[i]:colptr[i+1]]
ROW = np.array([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7], "int64")
COLPTR = np.array([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13], "int64")
NODES = np.array([0, 8, 1, 2], "int64")
EIDS = np.arange(13, dtype="int64") * 10
WEIGHT = np.linspace(0.1, 1.3, 13).astype("float32")

TOLERANCE = {"case_send_ue_recv_grads": (1e-5, 1e-5), "case_segment_dtypes": (1e-3, 1e-3)}


def t(a, dtype=None):
    return paddle.to_tensor(np.asarray(a) if dtype is None else np.asarray(a).astype(dtype))


def case_send_u_recv_values():
    x, src, dst = t(X), t(SRC), t(DST)
    out = {}
    for r in REDUCE:
        out[r] = G.send_u_recv(x, src, dst, reduce_op=r)
        out[f"{r}_out5"] = G.send_u_recv(x, src, dst, r, out_size=5)
        out[f"{r}_out0"] = G.send_u_recv(x, src, dst, r, out_size=0)
        out[f"{r}_neg"] = G.send_u_recv(x, src, dst, r, out_size=-1)
        out[f"{r}_tensor"] = G.send_u_recv(x, src, dst, r, out_size=t(4))
    out["int64_index"] = G.send_u_recv(x, t(SRC, "int64"), t(DST, "int64"), "mean")
    out["np_size"] = G.send_u_recv(x, src, dst, out_size=np.int64(4))
    out["float_size"] = G.send_u_recv(x, src, dst, out_size=3.7)
    out["col_index"] = G.send_u_recv(x, t(SRC[:, None]), t(DST[:, None]), "max")
    out["max_plus_1"] = G.send_u_recv(x, src, dst, out_size=paddle.max(dst) + 1)
    return out


def case_send_u_recv_grads():
    xs = randn(6, 4, seed=1)
    out = {}
    for r in REDUCE:
        out[r] = backprop(lambda x, r=r: G.send_u_recv(x, t(GSRC), t(GDST), r), xs)
        out[f"{r}_out8"] = backprop(
            lambda x, r=r: G.send_u_recv(x, t(GSRC), t(GDST), r, out_size=8), xs
        )
    ties = np.array([[1, 5], [1, 2], [3, 5]], "float32")  # max/min ties get the whole grad
    for r in ("max", "min"):
        out[f"{r}_ties"] = backprop(
            lambda x, r=r: G.send_u_recv(x, t([0, 1, 2, 0]), t([0, 0, 0, 1]), r), ties
        )
    out["grad_3d"] = backprop(lambda x: G.send_u_recv(x, t(GSRC), t(GDST), "mean"), randn(6, 2, 3))
    out["grad_1d"] = backprop(lambda x: G.send_u_recv(x, t(GSRC), t(GDST), "max"), randn(6))
    return out


def case_send_u_recv_dtypes():
    src, dst = t(SRC), t(DST)
    odd = np.array([[1, -4, 7], [2, 3, -5], [6, -1, 2]])
    out = {}
    for dt in ("float64", "int32", "int64"):
        out[dt] = [G.send_u_recv(t(odd, dt), src, dst, r) for r in REDUCE]
    out["x_1d"] = G.send_u_recv(t(X[0]), src[:2], dst[:2])
    out["x_3d"] = G.send_u_recv(t(randn(3, 2, 2)), src, dst, "max")
    empty = t(np.zeros(0, "int64"))
    out["no_edges"] = [G.send_u_recv(t(X), empty, empty, r) for r in REDUCE]
    out["no_edges_out_size"] = [G.send_u_recv(t(X), empty, empty, r, out_size=4) for r in REDUCE]
    out["no_nodes"] = G.send_u_recv(t(np.zeros((0, 3), "float32")), empty, empty)
    return out


def case_send_u_recv_errors():
    x, src, dst = t(X), t(SRC), t(DST)
    bad = {
        "reduce_prod": lambda: G.send_u_recv(x, src, dst, "prod"),
        "reduce_upper": lambda: G.send_u_recv(x, src, dst, "SUM"),
        "float16": lambda: G.send_u_recv(t(X, "float16"), src, dst),
        "bool": lambda: G.send_u_recv(t(X > 1), src, dst),
        "float_index": lambda: G.send_u_recv(x, t(SRC, "float32"), dst).numpy(),
        "int16_index": lambda: G.send_u_recv(x, t(SRC, "int16"), t(DST, "int16")).numpy(),
        "mixed_index": lambda: G.send_u_recv(x, src, t(DST, "int64")),
        "length_mismatch": lambda: G.send_u_recv(x, t([0, 1]), t([0, 1, 2])),
        "row_index": lambda: G.send_u_recv(x, t([[0, 1]]), t([[0, 1]])),
        "src_too_big": lambda: G.send_u_recv(x, t([0, 5]), t([0, 1])),
        "dst_too_big": lambda: G.send_u_recv(x, t([0, 1]), t([0, 3])),
        "out_size_too_small": lambda: G.send_u_recv(x, src, dst, out_size=2),
        "negative_dst": lambda: G.send_u_recv(x, t([0, 1]), t([-1, 1])),
        "negative_src": lambda: G.send_u_recv(x, t([-1, 1]), t([0, 1])),
        "x_0d": lambda: G.send_u_recv(t(1.0), src, dst),
    }
    return {k: expect_error(f) for k, f in bad.items()}


def case_send_ue_recv_values():
    x, src, dst = t(X), t(SRC), t(DST)
    y = t([1, 1, 1, 2], "float32")
    out = {f"{m}_{r}": G.send_ue_recv(x, y, src, dst, m, r) for m in MESSAGE for r in REDUCE}
    out["out_size"] = G.send_ue_recv(x, y, src, dst, out_size=6)
    out["y_2d"] = G.send_ue_recv(x, t(randn(4, 3)), src, dst, "mul", "mean")
    out["y_col"] = G.send_ue_recv(x, t(randn(4, 1)), src, dst, "sub", "max")
    out["x_1d"] = G.send_ue_recv(t(X[:, 0]), y, src, dst)
    out["x3d_y2d"] = G.send_ue_recv(t(randn(3, 2, 4)), t(randn(4, 4)), src, dst, "div")
    out["x2d_y3d"] = G.send_ue_recv(t(randn(3, 1)), t(randn(4, 2, 4)), src, dst, "mul", "min")
    out["int64_sub"] = G.send_ue_recv(t(X, "int64"), t([1, 2, 3, 4]), src, dst, "sub", "mean")
    out["float64"] = G.send_ue_recv(t(X, "float64"), t(y, "float64"), src, dst, "div", "sum")
    empty = t(np.zeros(0, "int32"))
    out["no_edges"] = G.send_ue_recv(x, t(np.zeros(0, "float32")), empty, empty, "mul", "max")
    return out


def case_send_ue_recv_grads():
    xs, ys = randn(6, 3, seed=2), randn(9, 3, seed=3) + 2.5  # y away from 0 for div
    out = {}
    for m in MESSAGE:
        for r in REDUCE:
            out[f"{m}_{r}"] = backprop(
                lambda x, y, m=m, r=r: G.send_ue_recv(x, y, t(GSRC), t(GDST), m, r), xs, ys
            )
    out["bcast_y"] = backprop(
        lambda x, y: G.send_ue_recv(x, y, t(GSRC), t(GDST), "mul", "sum"), xs, ys[:, :1]
    )
    out["y_1d"] = backprop(
        lambda x, y: G.send_ue_recv(x, y, t(GSRC), t(GDST), "add", "max", out_size=7),
        xs,
        ys[:, 0],
    )
    return out


def case_send_ue_recv_errors():
    x, src, dst = t(X), t(SRC), t(DST)
    y = t([1, 1, 1, 2], "float32")
    bad = {
        "message_pow": lambda: G.send_ue_recv(x, y, src, dst, "pow"),
        "reduce_prod": lambda: G.send_ue_recv(x, y, src, dst, "add", "prod"),
        "y_rows": lambda: G.send_ue_recv(x, t([1.0, 2.0, 3.0]), src, dst),
        "y_features": lambda: G.send_ue_recv(x, t(np.ones((4, 2), "float32")), src, dst),
        "bcast_3d": lambda: G.send_ue_recv(t(randn(3, 2, 4)), t(randn(4, 2)), src, dst),
        "int_x_float_y": lambda: G.send_ue_recv(t(X, "int32"), y, src, dst),
        "float_x_int_y": lambda: G.send_ue_recv(x, t([1, 1, 1, 2]), src, dst),
        "int_div": lambda: G.send_ue_recv(t(X, "int32"), t([1, 2, 3, 4], "int32"), src, dst, "div"),
        "float16": lambda: G.send_ue_recv(t(X, "float16"), t(y, "float16"), src, dst),
    }
    return {k: expect_error(f) for k, f in bad.items()}


def case_send_uv():
    x, src, dst = t(X), t(SRC), t(DST)
    y = t(X * 2 + 1)
    out = {m: G.send_uv(x, y, src, dst, m) for m in MESSAGE}
    out.update({f"{m}_1d": G.send_uv(t(X[:, 0]), t(X[:, 1] + 1), src, dst, m) for m in MESSAGE})
    out["bcast"] = G.send_uv(x, t(np.ones((3, 1), "float32")), src, dst)
    out["bcast_3d"] = G.send_uv(t(randn(3, 2, 1)), t(randn(3, 3)), src, dst, "mul")
    out["int64"] = G.send_uv(t(X, "int64"), t(X, "int64"), src, dst, "sub")
    out["no_edges"] = G.send_uv(x, y, t(np.zeros(0, "int64")), t(np.zeros(0, "int64")))
    xs, ys = randn(6, 3, seed=4), randn(6, 3, seed=5) + 2.5
    for m in MESSAGE:
        out[f"grad_{m}"] = backprop(lambda a, b, m=m: G.send_uv(a, b, t(GSRC), t(GDST), m), xs, ys)
    bad = {
        "message_max": lambda: G.send_uv(x, y, src, dst, "max"),
        "int_div": lambda: G.send_uv(t(X, "int32"), t(X + 1, "int32"), src, dst, "div"),
        "mixed": lambda: G.send_uv(t(X, "int32"), y, src, dst),
        "float16": lambda: G.send_uv(t(X, "float16"), t(X, "float16"), src, dst),
        "length_mismatch": lambda: G.send_uv(x, y, t([0, 1]), t([0])),
        "bcast": lambda: G.send_uv(x, t(np.ones((3, 2), "float32")), src, dst),
    }
    out["errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out


def case_segment_values():
    data = t(np.array([[1, 2, 3], [3, 2, 1], [4, 5, 6]], "float32"))
    out = {}
    for name in SEGMENTS:
        f = getattr(G, name)
        out[name] = {
            "basic": f(data, t([0, 0, 1], "int32")),
            "gap": f(data, t([0, 0, 3], "int32")),
            "start_2": f(data, t([2, 2, 3], "int64")),
            "one_d": f(data[:, 0], t([0, 0, 1])),
            "three_d": f(t(randn(3, 2, 2)), t([0, 1, 1])),
            "inf_nan": f(t([[np.inf, -np.inf], [np.nan, 1.0]], "float32"), t([0, 0])),
        }
    return out


def case_segment_grads():
    data = randn(7, 3, seed=6)
    ids = t([0, 0, 0, 2, 2, 3, 3])
    ties = np.array([[1, 5], [1, 2], [3, 5], [7, 7]], "float32")
    out = {}
    for name in SEGMENTS:
        f = getattr(G, name)
        out[name] = backprop(lambda d, f=f: f(d, ids), data)
        out[f"{name}_ties"] = backprop(lambda d, f=f: f(d, t([0, 0, 0, 2])), ties)
    return out


def case_segment_dtypes():
    data = np.array([[1, 4, -7], [2, 3, 5], [6, -1, 2]])
    ids = t([0, 0, 1], "int32")
    out = {}
    for dt in ("float64", "int32", "int64", "float16"):
        out[dt] = [getattr(G, n)(t(data, dt), ids) for n in SEGMENTS]
    return out


def case_segment_errors():
    data = t(np.array([[1, 2, 3], [3, 2, 1], [4, 5, 6]], "float32"))
    out = {}
    for name in ("segment_sum", "segment_max"):
        f = getattr(G, name)
        bad = {
            "unsorted": lambda f=f: f(data, t([1, 0, 1], "int32")),
            "negative": lambda f=f: f(data, t([-1, 0, 1], "int32")),
            "length": lambda f=f: f(data, t([0, 1], "int32")),
            "ids_2d": lambda f=f: f(data, t([[0, 0, 1]], "int32")),
            "float_ids": lambda f=f: f(data, t([0, 0, 1], "float32")),
            "bfloat16": lambda f=f: f(data.astype("bfloat16"), t([0, 0, 1])),
            "bool": lambda f=f: f(data > 2, t([0, 0, 1])),
            "int16": lambda f=f: f(data.astype("int16"), t([0, 0, 1])),
            "data_0d": lambda f=f: f(t(1.0), t(0)),
        }
        out[name] = {k: expect_error(g) for k, g in bad.items()}
    return out


def case_reindex():
    x, nb, ct = t([0, 1, 2]), t([8, 9, 0, 4, 7, 6, 7]), t([2, 3, 2], "int32")
    nb2, ct2 = t([0, 2, 3, 5, 1]), t([1, 3, 1], "int32")
    out = {
        "basic": G.reindex_graph(x, nb, ct),
        "int32": G.reindex_graph(t(x, "int32"), t(nb, "int32"), ct),
        "repeated_x": G.reindex_graph(t([5, 5, 1]), nb, ct),
        "negative_ids": G.reindex_graph(t([-3, 1]), t([-3, 5, -7]), t([1, 2], "int32")),
        "self_loops": G.reindex_graph(t([3]), t([3, 3, 4]), t([3], "int32")),
        "no_neighbors": G.reindex_graph(x, t(np.zeros(0, "int64")), t([0, 0, 0], "int32")),
        "buffers": G.reindex_graph(
            x, nb, ct, paddle.full([10], -1, "int32"), paddle.full([10], -1, "int32")
        ),
        "heter": G.reindex_heter_graph(x, [nb, nb2], [ct, ct2]),
        "heter_repeated_x": G.reindex_heter_graph(t([5, 5, 1]), [nb, nb2], [ct, ct2]),
        "heter_tuple": G.reindex_heter_graph(x, (nb,), (ct,)),
    }
    bad = {
        "mixed": lambda: G.reindex_graph(t(x, "int32"), nb, ct),
        "float_neighbors": lambda: G.reindex_graph(x, t(nb, "float32"), ct),
        "count_int64": lambda: G.reindex_graph(x, nb, t(ct, "int64")),
        "float": lambda: G.reindex_graph(t(x, "float32"), t(nb, "float32"), ct),
        "empty_x": lambda: G.reindex_graph(t(np.zeros(0, "int64")), nb, t(np.zeros(0, "int32"))),
        "heter_tensor": lambda: G.reindex_heter_graph(x, nb, ct),
    }
    out["errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out


def _is_sample(nb, counts, nodes, row=ROW, colptr=COLPTR):
    """Each node's sampled neighbors are distinct in-edges of that node."""
    nb, counts, ok, at = nb.numpy(), counts.numpy(), [], 0
    for node, c in zip(nodes, counts):
        mine = row[colptr[node] : colptr[node + 1]].tolist()
        got = nb[at : at + c].tolist()
        at += c
        ok.append(all(got.count(v) <= mine.count(v) for v in got))
    return ok


def case_sample_neighbors():
    row, colptr, nodes, eids = t(ROW), t(COLPTR), t(NODES), t(EIDS)
    out = {
        "all_kept": G.sample_neighbors(row, colptr, nodes, sample_size=5),
        "all_kept_eids": G.sample_neighbors(row, colptr, nodes, 2, eids, True),
        "int32": G.sample_neighbors(t(ROW, "int32"), t(COLPTR, "int32"), t(NODES, "int32"), 5),
        "size_0": G.sample_neighbors(row, colptr, nodes, sample_size=0),
        "eids_not_returned": G.sample_neighbors(row, colptr, nodes, 2, eids=eids),
        "perm_buffer": G.sample_neighbors(row, colptr, nodes, 9, perm_buffer=t(np.arange(13))),
        "no_nodes": G.sample_neighbors(row, colptr, t(np.zeros(0, "int64")), 1),
    }
    nb, counts, e = G.sample_neighbors(row, colptr, nodes, 1, eids, True)
    out["size_1"] = {"counts": counts, "dtypes": [nb.dtype, e.dtype], "shape": nb.shape}
    out["size_1_valid"] = _is_sample(nb, counts, NODES)
    out["size_1_eids_match"] = (ROW[e.numpy() // 10] == nb.numpy()).tolist()
    bad = {
        "no_eids": lambda: G.sample_neighbors(row, colptr, nodes, 2, return_eids=True),
        "mixed": lambda: G.sample_neighbors(t(ROW, "int32"), colptr, nodes, 1),
        "float_colptr": lambda: G.sample_neighbors(row, t(COLPTR, "float32"), nodes, 1),
        "float": lambda: G.sample_neighbors(
            t(ROW, "float32"), t(COLPTR, "float32"), t(NODES, "float32"), 1
        ),
        "eids_int32": lambda: G.sample_neighbors(row, colptr, nodes, 2, t(EIDS, "int32"), True),
    }
    out["errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out


def case_weighted_sample_neighbors():
    row, colptr, nodes, eids, w = t(ROW), t(COLPTR), t(NODES), t(EIDS), t(WEIGHT)
    out = {
        "all_kept": G.weighted_sample_neighbors(row, colptr, w, nodes, 2),
        "all_kept_eids": G.weighted_sample_neighbors(row, colptr, w, nodes, 3, eids, True),
        "int32": G.weighted_sample_neighbors(
            t(ROW, "int32"), t(COLPTR, "int32"), w, t(NODES, "int32"), 2
        ),
    }
    heavy = WEIGHT.copy()
    heavy[:2] = [1e6, 1e-6]  # node 0's in-edge from 3 dominates its edge from 7
    out["heavy"] = G.weighted_sample_neighbors(row, colptr, t(heavy), t([0, 0, 0, 0]), 1)
    nb, counts, e = G.weighted_sample_neighbors(row, colptr, w, nodes, 1, eids, True)
    out["size_1"] = {"counts": counts, "dtypes": [nb.dtype, e.dtype], "shape": nb.shape}
    out["size_1_valid"] = _is_sample(nb, counts, NODES)
    out["size_1_eids_match"] = (ROW[e.numpy() // 10] == nb.numpy()).tolist()
    bad = {
        "no_eids": lambda: G.weighted_sample_neighbors(row, colptr, w, nodes, 2, return_eids=True),
        "float64_weight": lambda: G.weighted_sample_neighbors(
            row, colptr, t(WEIGHT, "float64"), nodes, 1
        ),
        "float_row": lambda: G.weighted_sample_neighbors(t(ROW, "float32"), colptr, w, nodes, 1),
        "mixed": lambda: G.weighted_sample_neighbors(t(ROW, "int32"), colptr, w, nodes, 1),
        "float_nodes": lambda: G.weighted_sample_neighbors(row, colptr, w, t(NODES, "float32"), 1),
    }
    out["errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out


def case_incubate_graph():
    with warnings.catch_warnings():  # the deprecated aliases warn on each call
        warnings.simplefilter("ignore")
        return _incubate_graph()


def _incubate_graph():
    import paddle.incubate as I

    x, src, dst = t(X), t(SRC), t(DST)
    out = {r: I.graph_send_recv(x, src, dst, pool_type=r, out_size=4) for r in REDUCE}
    out["grad"] = backprop(lambda a: I.graph_send_recv(a, t(GSRC), t(GDST), "mean"), randn(6, 2))
    out["bad_pool"] = expect_error(lambda: I.graph_send_recv(x, src, dst, pool_type="prod"))
    data, ids = t(randn(4, 3)), t([0, 0, 2, 2])
    out["segments"] = [getattr(I, n)(data, ids) for n in SEGMENTS]
    nb, ct = t([8, 9, 0, 4, 7, 6, 7]), t([2, 3, 2], "int32")
    out["reindex"] = I.graph_reindex(t([0, 1, 2]), nb, ct)
    buf = [paddle.full([10], -1, "int32"), paddle.full([10], -1, "int32")]
    out["reindex_buffers"] = I.graph_reindex(t([0, 1, 2]), nb, ct, *buf, True)
    out["reindex_no_buffers"] = expect_error(
        lambda: I.graph_reindex(t([0, 1, 2]), nb, ct, flag_buffer_hashtable=True)
    )
    row, colptr, nodes, eids = t(ROW), t(COLPTR), t(NODES), t(EIDS)
    out["sample"] = I.graph_sample_neighbors(row, colptr, nodes, sample_size=2)
    out["sample_eids"] = I.graph_sample_neighbors(row, colptr, nodes, eids, None, 5, True)
    out["sample_no_perm"] = expect_error(
        lambda: I.graph_sample_neighbors(row, colptr, nodes, sample_size=2, flag_perm_buffer=True)
    )
    out["sample_no_eids"] = expect_error(
        lambda: I.graph_sample_neighbors(row, colptr, nodes, sample_size=2, return_eids=True)
    )
    out["khop"] = I.graph_khop_sampler(row, colptr, nodes, [2])
    out["khop_eids"] = I.graph_khop_sampler(row, colptr, nodes, [5], eids, True)
    out["khop_int32"] = I.graph_khop_sampler(
        t(ROW, "int32"), t(COLPTR, "int32"), t(NODES, "int32"), [3]
    )
    bad = {
        "no_sizes": lambda: I.graph_khop_sampler(row, colptr, nodes, []),
        "no_neighbors": lambda: I.graph_khop_sampler(row, colptr, nodes, [0]),
        "float": lambda: I.graph_khop_sampler(t(ROW, "float32"), colptr, nodes, [1]),
        "no_eids": lambda: I.graph_khop_sampler(row, colptr, nodes, [1], return_eids=True),
    }
    out["khop_errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out


def case_identity_loss():
    import paddle.incubate as I

    xs = randn(2, 3, 4, seed=8)
    out = {
        str(r): backprop(lambda x, r=r: I.identity_loss(x, r), xs)
        for r in ("none", "sum", "mean", 0, 1, 2, "SUM")
    }
    out["float64"] = I.identity_loss(t(xs, "float64"), "mean")
    bad = {
        "bad_name": lambda: I.identity_loss(t(xs), "bad"),
        "code_3": lambda: I.identity_loss(t(xs), 3),
        "int64": lambda: I.identity_loss(t([1, 2, 3]), "sum"),
        "float16": lambda: I.identity_loss(t(xs, "float16"), "mean"),
    }
    out["errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out


def case_softmax_mask_fuse():
    import paddle.incubate as I

    xs = randn(2, 2, 3, 4, seed=9)
    mask = np.where(np.arange(24).reshape(2, 1, 3, 4) % 3 == 0, -1e4, 0).astype("float32")
    out = {
        "grad": backprop(lambda x: I.softmax_mask_fuse(x, t(mask)), xs),
        "float64": I.softmax_mask_fuse(t(xs, "float64"), t(mask, "float64")),
        "minus_inf": I.softmax_mask_fuse(t(xs), paddle.full([2, 1, 3, 4], -np.inf)),
    }
    bad = {
        "batch": lambda: I.softmax_mask_fuse(t(xs), t(mask[:1])),
        "heads": lambda: I.softmax_mask_fuse(t(xs), paddle.zeros([2, 2, 3, 4])),
        "rows": lambda: I.softmax_mask_fuse(t(xs), paddle.zeros([2, 1, 1, 4])),
        "mask_3d": lambda: I.softmax_mask_fuse(t(xs), paddle.zeros([2, 3, 4])),
        "x_3d": lambda: I.softmax_mask_fuse(t(xs[0]), t(mask[0])),
        "mask_int": lambda: I.softmax_mask_fuse(t(xs), paddle.zeros([2, 1, 3, 4], "int32")),
        "float16": lambda: I.softmax_mask_fuse(t(xs, "float16"), t(mask, "float16")),
        "empty_mask": lambda: I.softmax_mask_fuse(t(xs), paddle.zeros([0])),
    }
    out["errors"] = {k: expect_error(f) for k, f in bad.items()}
    return out
