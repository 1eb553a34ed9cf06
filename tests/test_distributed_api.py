"""paddle.distributed: DistAttr, shard_scaler, QueueDataset/InMemoryDataset, and a
single-device process using a larger ProcessMesh (Paddle's single-card rank 0).

Runs on the 8-device CPU mesh of conftest.py; the single-device case runs in a subprocess.
Values Paddle prints are in the goldens (tests/cases/parallel_core.py)."""

import copy
import os
import subprocess
import sys
import textwrap

import numpy as np
import paddle.distributed as dist
import pytest

import paddle
from parallel._dataset import parse_line

# -- DistAttr ------------------------------------------------------------------------------------
MESH23 = dist.ProcessMesh([[2, 4, 5], [0, 1, 3]], dim_names=["x", "y"])


@pytest.mark.parametrize(
    "specs, placements",
    [
        (["x", "y"], ["Shard(dim=0)", "Shard(dim=1)"]),
        (["y", None], ["Replicate()", "Shard(dim=0)"]),
        ([None, None, "x"], ["Shard(dim=2)", "Replicate()"]),
        ([], ["Replicate()", "Replicate()"]),
    ],
)
def test_dist_attr_placements(specs, placements):
    a = dist.DistAttr(MESH23, specs)
    assert [repr(p) for p in a.placements] == placements
    assert a.sharding_specs is specs


@pytest.mark.parametrize(
    "mesh, specs, error, match",
    [
        (MESH23, ["z"], ValueError, "Invalid sharding dimension 'z'"),
        (MESH23, ("x",), ValueError, "must be an instance of list"),
        ([[0, 1]], ["x"], ValueError, "must be an instance of paddle.distributed.ProcessMesh"),
        (MESH23, ["x", 1], AssertionError, "must be an instance of str"),
    ],
)
def test_dist_attr_errors(mesh, specs, error, match):
    with pytest.raises(error, match=match):
        dist.DistAttr(mesh, specs)


def test_dist_attr_value_semantics():
    a = dist.DistAttr(MESH23, ["x", None])
    b = copy.deepcopy(a)
    assert a == b and a is not b and a.process_mesh is MESH23
    b.dims_mapping = [-1, 1]
    assert a != b and a.dims_mapping == [0, -1] and b.multi_dims_mapping == [[], [1]]
    b._set_partial_dims([0])
    assert [repr(p) for p in b.placements] == ["Partial(reduce_type=SUM)", "Shard(dim=1)"]
    with pytest.raises(ValueError, match="Sharding dim"):
        b._set_partial_dims([1])
    with pytest.raises(TypeError):
        hash(a)


# -- shard_scaler --------------------------------------------------------------------------------
MESH_A = dist.ProcessMesh([0, 1, 2, 3], dim_names=["x"])
MESH_B = dist.ProcessMesh([4, 5, 6, 7], dim_names=["x"])


def _two_mesh_grads(shard: bool, poison: bool = False):
    """A Linear on mesh A feeding a Linear on mesh B; backward of the scaled float16 loss."""
    paddle.seed(2)
    l1, l2 = paddle.nn.Linear(4, 4), paddle.nn.Linear(4, 4)
    if shard:

        def split_weight(name, layer, mesh):
            if name == "":
                layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Shard(1)])

        dist.shard_layer(l1, MESH_A, split_weight)
        dist.shard_layer(l2, MESH_B)
    scaler = paddle.amp.GradScaler(init_loss_scaling=8.0)
    if shard:
        assert dist.shard_scaler(scaler) is scaler
    x = paddle.to_tensor(np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4))
    if shard:
        x = dist.shard_tensor(x, MESH_A, [dist.Replicate()])
    with paddle.amp.auto_cast(True, dtype="float16"):
        h = l1(x)
        if shard:
            h = dist.shard_tensor(dist.unshard_dtensor(h), MESH_B, [dist.Replicate()])
        loss = l2(h).sum()
    scaler.scale(loss).backward()
    if poison:
        l2.bias.grad.set_value(paddle.full([4], float("inf")))
    opt = paddle.optimizer.SGD(0.1, parameters=l1.parameters() + l2.parameters())
    return scaler, opt, [l1.weight, l1.bias, l2.weight, l2.bias]


@pytest.mark.parametrize("poison", [False, True])
def test_shard_scaler_unscales_each_mesh(poison):
    ref_scaler, ref_opt, ref_params = _two_mesh_grads(shard=False, poison=poison)
    ref_scaler.unscale_(ref_opt)
    scaler, opt, params = _two_mesh_grads(shard=True, poison=poison)
    with pytest.raises(ValueError, match="incompatible devices"):  # what shard_scaler fixes
        type(scaler)._unscale(scaler, opt)
    scaler.unscale_(opt)
    for p, r in zip(params, ref_params):
        np.testing.assert_allclose(p.grad.numpy(), r.grad.numpy(), rtol=1e-6)
        assert p.grad._value.sharding == p._value.sharding  # grads stay on their mesh
    assert bool(scaler._found_inf) is poison is bool(ref_scaler._found_inf)
    with pytest.raises(RuntimeError, match="already been called"):
        scaler.unscale_(opt)


def test_shard_scaler_one_mesh_matches_plain_scaler():
    def run(shard):
        paddle.seed(5)
        net = paddle.nn.Linear(4, 2)
        if shard:
            dist.shard_layer(net, MESH_A)
        opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
        scaler = paddle.amp.GradScaler(init_loss_scaling=16.0)
        if shard:
            scaler = dist.shard_scaler(scaler)
            opt = dist.shard_optimizer(opt)
        x = paddle.ones([3, 4])
        for _ in range(2):
            with paddle.amp.auto_cast(True, dtype="float16"):
                loss = net(x).mean()
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            opt.clear_grad()
        return net.weight.numpy(), float(scaler._scale)

    (w0, s0), (w1, s1) = run(False), run(True)
    np.testing.assert_allclose(w1, w0, rtol=1e-6)
    assert s0 == s1


def test_shard_scaler_rejects_non_scaler():
    with pytest.raises(AttributeError, match="GradScaler"):
        dist.shard_scaler(object())


# -- datasets: the MultiSlot text format -------------------------------------------------------
class _Var:
    def __init__(self, name, dtype="int64", shape=(-1, 1)):
        self.name, self.dtype, self.shape = name, paddle.to_tensor([0], dtype).dtype, list(shape)


def _slots(*types):
    from parallel._dataset import _Slot

    return [_Slot(_Var(f"s{i}", t)) for i, t in enumerate(types)]


@pytest.mark.parametrize(
    "line, types, ins_id, content, expected",
    [
        ("2 1 2 1 5\n", ("int64", "int64"), False, False, ("", "", [[1, 2], [5]])),
        ("1 7 3 1 2 3 99 extra\n", ("int64", "int64"), False, False, ("", "", [[7], [1, 2, 3]])),
        ("1 -3 1 4", ("int64", "int64"), False, False, ("", "", [[-3], [4]])),
        ("1 3 2 0.5 1e3\n", ("int64", "float32"), False, False, ("", "", [[3], [0.5, 1000.0]])),
        ("1 id7 1 1", ("int64",), True, False, ("id7", "", [[1]])),
        ("1 id7 1 txt 2 4 5", ("int64",), True, True, ("id7", "txt", [[4, 5]])),
    ],
)
def test_parse_line(line, types, ins_id, content, expected):
    assert parse_line(line, _slots(*types), ins_id, content) == expected


@pytest.mark.parametrize(
    "line, types, ins_id, match",
    [
        ("0 1 2\n", ("int64",), False, "slot 0 .*number of values is 0"),
        ("1 1\n", ("int64", "int64"), False, "slot 1 .*missing"),
        ("1 1.5 1 2\n", ("int64", "int64"), False, "slot 0 .*not a uint64"),
        ("3 1 2\n", ("int64",), False, "3 values announced, 2 present"),
        ("\n", ("int64",), False, "slot 0"),
        ("1 x 1 nan_", ("int64", "float32"), False, "slot 0"),
        ("2 id 1 1", ("int64",), True, "ins_id"),
    ],
)
def test_parse_line_errors(line, types, ins_id, match):
    with pytest.raises(ValueError, match=match):
        parse_line(line, _slots(*types), ins_id, False)


# -- datasets: loading and batches -------------------------------------------------------------
LINES_A = "2 1 2 1 5\n1 9 1 8\n"
LINES_B = "1 11 2 12 13\n"


@pytest.fixture
def files(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(LINES_A)
    b.write_text(LINES_B)
    return [str(a), str(b)]


def _memory_dataset(files, batch_size=2, **settings):
    ds = dist.InMemoryDataset()
    ds.init(batch_size=batch_size, thread_num=2, use_var=[_Var("u"), _Var("v")], **settings)
    ds.set_filelist(files)
    return ds


def test_in_memory_load_sizes_and_batches(files):
    ds = _memory_dataset(files)
    assert ds.get_memory_data_size() == 0
    ds.load_into_memory()
    size = ds.get_memory_data_size()
    assert size == 3 and isinstance(size, np.int64)
    batches = list(ds._feed_batches())
    assert [sorted(b) for b in batches] == [["u", "v"], ["u", "v"]]
    np.testing.assert_array_equal(batches[0]["u"], [[1], [2], [9]])
    np.testing.assert_array_equal(batches[0]["v"], [[5], [8]])
    np.testing.assert_array_equal(batches[1]["v"], [[12], [13]])
    assert batches[0]["u"].dtype == np.int64
    ds.load_into_memory()  # a second load replaces the first
    assert ds.get_memory_data_size() == 3 and ds.get_shuffle_data_size() == 0
    ds.global_shuffle()
    assert ds.get_shuffle_data_size() == 3
    ds.release_memory()
    assert ds.get_memory_data_size() == 0 and list(ds._feed_batches()) == []


def test_in_memory_shuffles_keep_instances(files):
    ds = _memory_dataset(files, batch_size=1)
    ds.load_into_memory()
    before = sorted(map(str, ds._records))
    ds.local_shuffle()
    ds.global_shuffle(thread_num=4)
    assert sorted(map(str, ds._records)) == before
    ds._init_distributed_settings(fea_eval=True, candidate_size=10)
    v_before = [r[2][1] for r in ds._records]
    u_before = [r[2][0] for r in ds._records]
    ds.slots_shuffle(["v"])
    assert [r[2][0] for r in ds._records] == u_before
    assert sorted(map(str, (r[2][1] for r in ds._records))) == sorted(map(str, v_before))


def test_preload_and_queue_dataset(files):
    ds = _memory_dataset(files)
    ds.preload_into_memory()
    ds.wait_preload_done()
    assert ds.get_memory_data_size() == 3
    q = dist.QueueDataset()
    q.init(batch_size=3, use_var=[_Var("u"), _Var("f", "float32", (-1, 2))])
    bad = q._batches_of([("", "", [[1], [0.5, 1.5]]), ("", "", [[2], [2.0]])])
    with pytest.raises(ValueError, match="cannot be shaped"):
        list(bad)
    out = list(q._batches_of([("", "", [[1], [0.5, 1.5]]), ("", "", [[2], [2.0, 3.0]])]))
    np.testing.assert_array_equal(out[0]["f"], np.array([[0.5, 1.5], [2.0, 3.0]], np.float32))
    assert not hasattr(q, "load_into_memory")


def test_uint64_feasigns_keep_their_bits(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("1 18446744073709551615\n1 5\n")
    ds = dist.InMemoryDataset()
    ds.init(batch_size=2, use_var=[_Var("u")])
    ds.set_filelist([str(path)])
    ds.load_into_memory()
    (batch,) = ds._feed_batches()
    np.testing.assert_array_equal(batch["u"], [[-1], [5]])


def test_missing_file_reported_and_skipped(files, capsys):
    ds = _memory_dataset([files[0], files[0] + ".missing"])
    ds.load_into_memory()
    assert ds.get_memory_data_size() == 2
    assert "a.txt.missing: No such file" in capsys.readouterr().err


@pytest.mark.parametrize(
    "settings, match",
    [
        ({"pipe_command": "python reader.py"}, "pipe_command='python reader.py'"),
        ({"download_cmd": "hadoop fs -cat"}, "download_cmd"),
        ({"fs_name": "hdfs://x", "fs_ugi": "u,p"}, "HDFS"),
    ],
)
def test_shell_commands_are_not_run(files, settings, match):
    ds = _memory_dataset(files, **settings)
    with pytest.raises(NotImplementedError, match=match):
        ds.load_into_memory()
    with pytest.raises(NotImplementedError, match=match):
        ds.preload_into_memory()


def test_multi_trainer_global_shuffle_not_supported(files):
    class TwoWorkers:
        def worker_num(self):
            return 2

    ds = _memory_dataset(files)
    ds.load_into_memory()
    with pytest.raises(NotImplementedError, match="2 trainers"):
        ds.global_shuffle(TwoWorkers())
    ds.update_settings(merge_size=2)
    with pytest.raises(NotImplementedError, match="merge_size"):
        ds.global_shuffle()


def test_settings_and_set_date():
    ds = dist.InMemoryDataset()
    ds.init(batch_size=1, thread_num=2, queue_num=4, use_var=[])
    assert (ds.queue_num, ds.is_user_set_queue_num) == (4, True)
    ds.update_settings(batch_size=3, thread_num=5, parse_ins_id=True, unknown=1)
    assert ds.thread_num == 5 and ds.parse_ins_id and "batch_size: 3" in ds._desc()
    ds.set_date("20211111")
    with pytest.raises(ValueError, match="invalid literal"):
        ds.set_date("2021")
    with pytest.raises(ValueError, match="only supports dtype=float32 and dtype=int64"):
        ds.update_settings(use_var=[_Var("x", "float64")])


# -- a single-device process: a larger mesh is metadata (Paddle's single-card rank 0) ----------
SINGLE_DEVICE = textwrap.dedent(
    """
    import warnings
    import paddle
    import paddle.distributed as dist
    mesh = dist.ProcessMesh([0, 1], dim_names=["x"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = dist.dtensor_from_fn(paddle.ones, mesh, [dist.Replicate()], shape=[1])
    print(d)
    print(len(caught), "one device" in str(caught[0].message))
    net = paddle.nn.Linear(4, 4)
    net.weight = dist.shard_tensor(net.weight, mesh, [dist.Shard(0)])
    dist.shard_layer(net, mesh)
    print(net.weight.placements, net.bias.placements, net.weight.shape, net.weight.is_dist())
    y = net(paddle.ones([2, 4]))
    y.sum().backward()
    print(y.shape, net.weight.grad.shape)
    t = dist.shard_tensor(paddle.arange(4.0), mesh, [dist.Shard(0)])
    print(t._local_value().tolist(), t._local_value().shape)  # rank 0's piece, as in Paddle
    """
)


def test_single_device_process_keeps_global_values():
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    env["JAX_PLATFORMS"] = "cpu"
    out = subprocess.run(
        [sys.executable, "-c", SINGLE_DEVICE],
        capture_output=True,
        text=True,
        env=env,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True, "
        "process_mesh={shape: [2], process_ids: [0,1], dim_names: [x]}, "
        "placements=[Replicate()], GlobalDenseTensor=",
        "       [1.])",
        "1 True",
        "[Shard(dim=0)] [Replicate()] paddle.Size([4, 4]) True",
        "paddle.Size([2, 4]) paddle.Size([4, 4])",
        "[0.0, 1.0] paddle.Size([2])",
    ]


def test_dataset_module_paths():
    import paddle.distributed.fleet.dataset.dataset as module

    assert dist.fleet.InMemoryDataset is dist.InMemoryDataset is module.InMemoryDataset
    assert dist.fleet.dataset.QueueDataset is dist.QueueDataset
    assert "InMemoryDataset" not in dist.fleet.__all__ and "QueueDataset" in dist.__all__
