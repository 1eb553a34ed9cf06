"""paddle.distributed core objects: ProcessMesh, placements, shard_tensor/_local_value (as
rank 0 of an 8-process mesh sees it, which real Paddle answers in one process), shard_layer,
and reshard/printing on a 1-process mesh (multi-process reshard needs real communication)."""

import numpy as np
import paddle.distributed as dist
from _util import expect_error

import paddle


def _mesh():
    return dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])


def _m(mesh):
    return [str(mesh), mesh.shape, mesh.process_ids, mesh.dim_names]


def case_mesh_attrs():
    m = _mesh()
    return {
        "str": str(m),
        "shape": m.shape,
        "ids": m.process_ids,
        "names": m.dim_names,
        "ndim": m.ndim,
        "size": m.size,
        "mesh": m.mesh,
        "dim_size": m.get_dim_size("mp"),
        "dim_size_idx": m.get_dim_size(0),
        "contains": [m.contains(3), m.contains(9)],
        "empty": m.empty(),
    }


def case_mesh_defaults():
    return [
        _m(dist.ProcessMesh([0, 1, 2, 3])),
        _m(dist.ProcessMesh(shape=[2, 2], process_ids=[3, 2, 1, 0], dim_names=["a", "b"])),
        _m(dist.ProcessMesh(np.array([[0, 1], [2, 3]]))),
        _m(dist.ProcessMesh([2, 5, 7])),
    ]


def case_mesh_slicing():
    m = _mesh()
    return {
        "with_dim_mp": _m(m.get_mesh_with_dim("mp")),
        "with_dim_mp_1": _m(m.get_mesh_with_dim("mp", 1)),
        "with_dim_dp": _m(m.get_mesh_with_dim("dp")),
        "with_dim_dp_0": _m(m.get_mesh_with_dim("dp", 0)),
        "sub_mp": _m(m.get_submesh_with_dim("mp")),
        "sub_dp": _m(m.get_submesh_with_dim("dp")),
        "idx0": _m(m[0]),
        "idx12": _m(m[1, 2]),
        "col1": _m(m[:, 1]),
        "rows": _m(m[1:]),
        "by_name": _m(m["mp"]),
    }


def case_mesh_equality():
    m = _mesh()
    named = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["x", "y"])
    flat = dist.ProcessMesh([0, 1, 2, 3, 4, 5, 6, 7])
    return [
        m == named,
        m != named,
        m == flat,
        m == _mesh(),
        m[0] == dist.ProcessMesh([0, 1, 2, 3], ["mp"]),
        m.get_mesh_with_dim("dp") == m,
        m == 3,
    ]


def case_mesh_errors():
    return {
        "ragged": expect_error(lambda: dist.ProcessMesh([[0, 1], [2]])),
        "names_len": expect_error(lambda: dist.ProcessMesh([0, 1], dim_names=["a", "b"])),
        "dup_ids": expect_error(lambda: dist.ProcessMesh([0, 0])),
        "dup_names": expect_error(lambda: dist.ProcessMesh([[0, 1], [2, 3]], ["x", "x"])),
        "bad_name": expect_error(lambda: _mesh().get_mesh_with_dim("zz")),
        "bad_dim": expect_error(lambda: _mesh().get_dim_size(5)),
        "bad_index": expect_error(lambda: _mesh()[5]),
    }


def case_placements():
    ps = [
        dist.Shard(0),
        dist.Shard(1),
        dist.Shard(-1),
        dist.Shard(0, shard_order=1),
        dist.Shard(0, split_factor=2),
        dist.Replicate(),
        dist.Partial(),
        dist.Partial(dist.ReduceType.kRedMax),
        dist.Partial(dist.ReduceType.kRedMin),
        dist.Partial(dist.ReduceType.kRedAvg),
    ]
    return {
        "repr": [repr(p) for p in ps],
        "str": [str(p) for p in ps],
        "is": [[p.is_shard(), p.is_replicated(), p.is_partial()] for p in ps],
        "is_shard_dim": [dist.Shard(1).is_shard(1), dist.Shard(1).is_shard(0)],
        "dim": dist.Shard(1).get_dim(),
        "order": [
            dist.Shard(0, shard_order=1).get_co_shard_order(),
            dist.Shard(0).get_co_shard_order(),
            dist.Shard(0).get_split_factor(),
        ],
        "eq": [
            dist.Shard(0) == dist.Shard(0),
            dist.Shard(0) == dist.Shard(1),
            dist.Shard(0, shard_order=0) == dist.Shard(0),
            dist.Shard(0, shard_order=1) == dist.Shard(0),
            dist.Replicate() == dist.Replicate(),
            dist.Partial() == dist.Partial(),
            dist.Partial() == dist.Partial(dist.ReduceType.kRedMax),
            dist.Shard(0) == dist.Replicate(),
        ],
        "hash": [
            hash(dist.Shard(0)) == hash(dist.Shard(0)),
            hash(dist.Replicate()) == hash(dist.Replicate()),
        ],
        "reduce": [
            dist.Partial().reduce_type() == dist.ReduceType.kRedSum,
            repr(dist.ReduceType.kRedMax),
            str(dist.ReduceType.kRedMax),
            int(dist.ReduceType.kRedMin),
            int(dist.ReduceType.kRedAll),
        ],
        "bad_shard": expect_error(lambda: dist.Shard("a")),
    }


def _dt(d):
    lv = d._local_value()
    return {
        "placements": [repr(p) for p in d.placements],
        "local": lv,
        "shape": d.shape,
        "is_dist": d.is_dist(),
        "sg": d.stop_gradient,
    }


def case_shard_tensor_rank0():
    m = _mesh()
    x = paddle.to_tensor(np.arange(32, dtype="float32").reshape(4, 8))
    out = {
        "s0s1": _dt(dist.shard_tensor(x, m, [dist.Shard(0), dist.Shard(1)])),
        "s1s0": _dt(dist.shard_tensor(x, m, [dist.Shard(1), dist.Shard(0)])),
        "rs1": _dt(dist.shard_tensor(x, m, [dist.Replicate(), dist.Shard(1)])),
        "padded": _dt(dist.shard_tensor(x, m, [dist.Shard(0)])),
        "truncated": _dt(
            dist.shard_tensor(x, m, [dist.Shard(0), dist.Replicate(), dist.Replicate()])
        ),
        "coshard": _dt(dist.shard_tensor(x, m, [dist.Shard(0), dist.Shard(0)])),
        "partial": _dt(dist.shard_tensor(x, m, [dist.Replicate(), dist.Partial()])),
        "uneven": _dt(dist.shard_tensor(paddle.ones([3, 8]), m, [dist.Shard(0), dist.Replicate()])),
        "numpy_in": _dt(
            dist.shard_tensor(np.ones((2, 3), "float32"), m, [dist.Shard(0), dist.Replicate()])
        ),
        "from_fn": _dt(
            dist.dtensor_from_fn(paddle.ones, m, [dist.Shard(0), dist.Replicate()], shape=[4, 8])
        ),
        "dense": x.is_dist(),
    }
    x.stop_gradient = False
    out["grad_in"] = dist.shard_tensor(x, m, [dist.Shard(0), dist.Replicate()]).stop_gradient
    return out


def case_shard_parameter():
    m = _mesh()
    p = paddle.create_parameter([4, 8], "float32", name="w_case")
    d = dist.shard_tensor(p, m, [dist.Replicate(), dist.Shard(1)])
    return [
        isinstance(d, type(p)),
        d.name,
        p.name,
        d.stop_gradient,
        d.persistable,
        d.trainable,
        d.is_dist(),
        p.is_dist(),
        [repr(q) for q in d.placements],
        d._local_value().shape,
    ]


def case_shard_layer():
    m = _mesh()
    paddle.seed(1)
    net = paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 4))
    calls = []

    def shard_fn(name, layer, mesh):
        calls.append([name, type(layer).__name__])
        if name == "0":
            layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate(), dist.Shard(1)])
            layer.bias = dist.shard_tensor(layer.bias, mesh, [dist.Replicate(), dist.Shard(0)])
        if name == "2":
            layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate(), dist.Shard(0)])

    same = dist.shard_layer(net, m, shard_fn) is net
    params = {
        n: [
            p.name.endswith(".dist"),
            p.is_dist(),
            p.persistable,
            p._local_value().shape,
            p.stop_gradient,
        ]
        for n, p in net.named_parameters()
    }
    pls = {n: [repr(q) for q in p.placements] for n, p in net.named_parameters() if n != "2.bias"}
    return [
        same,
        calls,
        params,
        pls,
        list(net.state_dict().keys()),
        expect_error(lambda: dist.shard_layer(net, None)),
    ]


def case_dense_reshard_error():
    return expect_error(
        lambda: dist.reshard(paddle.ones([2, 2]), _mesh(), [dist.Replicate(), dist.Replicate()])
    )


def case_one_process_mesh():
    """A 1-process mesh: reshard, printing, ops and unshard run in a single process."""
    m = dist.ProcessMesh([0], dim_names=["x"])
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    d = dist.shard_tensor(x, m, [dist.Shard(0)])
    r = dist.reshard(d, m, [dist.Replicate()])
    p = dist.shard_tensor(x, m, [dist.Partial()])
    q = dist.reshard(p, m, [dist.Replicate()])
    y = d * 2 + 1
    u = dist.unshard_dtensor(d)
    m2 = dist.ProcessMesh([[0]], dim_names=["a", "b"])
    d2 = dist.shard_tensor(x, m2, [dist.Shard(1), dist.Replicate()])
    return {
        "str": str(d),
        "str2": str(d2),
        "r": [repr(v) for v in r.placements],
        "r_val": r,
        "p": [repr(v) for v in p.placements],
        "q": [repr(v) for v in q.placements],
        "q_val": q,
        "y": [y.is_dist(), [repr(v) for v in y.placements]],
        "y_val": y,
        "u": [u.is_dist(), u.placements, u.process_mesh],
        "u_val": u,
        "mesh": str(d.process_mesh),
    }


# -- DistAttr, dtensor_from_fn, shard_scaler, datasets ---------------------------------------------
def case_dist_attr():
    m = dist.ProcessMesh([[2, 4, 5], [0, 1, 3]], dim_names=["x", "y"])
    out = {}
    for specs in (["x", "y"], [None, "y"], ["y", None, None], [None, None], [], ["x", "x"]):
        a = dist.DistAttr(mesh=m, sharding_specs=specs)
        out[str(specs)] = [str(a), a.dims_mapping, a.multi_dims_mapping, a.sharding_specs]
    a = dist.DistAttr(mesh=m, sharding_specs=["x", None, None])
    a._set_partial_dims([1])
    out["partial"] = [str(a), a._is_partial(), sorted(a._partial_dims())]
    a._clean_partial_status()
    a.multi_dims_mapping = [[0, 1], [], []]
    a.dynamic_dims = [True, False, False]
    a.batch_dim, a.chunk_id = -1, 3
    out["set"] = [str(a), a.dims_mapping, a.annotated, a.is_annotated("dims_mapping")]
    a.reset()
    out["reset"] = [str(a), a.annotated]
    b = dist.DistAttr(mesh=m, sharding_specs=["x", None])
    out["eq"] = [b == dist.DistAttr(mesh=m, sharding_specs=["x", None]), b.process_mesh == m]
    out["errors"] = [
        expect_error(lambda: dist.DistAttr(mesh=m, sharding_specs=["z"])),
        expect_error(lambda: dist.DistAttr(mesh=m, sharding_specs="x")),
        expect_error(lambda: dist.DistAttr(mesh=[[0, 1]], sharding_specs=["x"])),
        expect_error(lambda: dist.DistAttr(mesh=m, sharding_specs=["x", 0])),
        expect_error(lambda: a._set_partial_dims([0]) if a.dims_mapping[0] == 0 else 1 / 0),
    ]
    return out


def case_dtensor_from_fn():
    m = _mesh()
    a = dist.dtensor_from_fn(paddle.ones, m, [dist.Shard(0), dist.Replicate()], shape=[4, 2])
    b = dist.dtensor_from_fn(paddle.arange, m, [dist.Replicate(), dist.Shard(0)], 8)
    return [
        [repr(p) for p in a.placements],
        a._local_value(),
        str(a.process_mesh),
        [repr(p) for p in b.placements],
        b._local_value(),
    ]


def case_shard_scaler():
    """shard_scaler returns the scaler itself."""
    s = paddle.amp.GradScaler(init_loss_scaling=1024)
    return [dist.shard_scaler(s) is s, expect_error(lambda: dist.shard_scaler(3))]


def _slot_vars(names, dtype="int64", shape=(None, 1)):
    return [paddle.static.data(name=n, shape=list(shape), dtype=dtype, lod_level=1) for n in names]


def case_dataset_desc():
    import tempfile

    paddle.enable_static()
    try:
        q = dist.QueueDataset()
        empty_q = q._desc()
        q.init(batch_size=4, use_var=_slot_vars(["f"], "float32", (None, 3)))
        d = dist.InMemoryDataset()
        empty_d = d._desc()
        d.init(batch_size=2, thread_num=3, use_var=_slot_vars(["s1", "s2"]))
        d._init_distributed_settings(parse_ins_id=True, parse_content=True, fea_eval=True)
        settings = [d.parse_ins_id, d.parse_content, d.fea_eval, d.merge_by_lineid]
        d.update_settings(batch_size=5, use_var=_slot_vars(["s3"]))
        with tempfile.TemporaryDirectory() as tmp:
            path = f"{tmp}/part-0"
            with open(path, "w") as f:
                f.write("2 1 2 2 5 4\n1 9 1 8\n1 7 3 1 2 3\n")
            m = dist.InMemoryDataset()
            m.init(batch_size=2, thread_num=1, use_var=_slot_vars(["a", "b"]))
            m.set_filelist([path])
            m.load_into_memory()
            size = m.get_memory_data_size()
        return {
            "empty": [empty_q, empty_d],
            "queue": q._desc(),
            "memory": d._desc(),
            "settings": settings,
            "threads": [d.thread_num, d.queue_num, q.thread_num],
            "size": [int(size), type(size).__name__],
            "errors": [
                expect_error(lambda: d.update_settings(use_var=_slot_vars(["i32"], "int32"))),
                expect_error(lambda: q.init(foo=1)),
                expect_error(lambda: d.set_date("2021-11-11")),
            ],
        }
    finally:
        paddle.disable_static()
