"""paddle.distributed core on the 8-device CPU mesh (conftest sets the XLA flag): a 2x4 (dp x mp)
MLP sharded by shard_layer trains like the single-device one, its compiled step holds the
expected collectives, parameters and optimizer states keep their placements; gradients flow
through shard_tensor/reshard; the legacy shard_specs form; to_static with reshard inside.
Mesh/placement objects and rank-0 views are compared with real Paddle in
tests/cases/parallel_core.py (goldens)."""

from __future__ import annotations

import copy
import pickle
import re

import jax
import numpy as np
import paddle.distributed as dist
import pytest

import paddle

pytestmark = pytest.mark.skipif(len(jax.devices()) < 8, reason="needs the 8-device CPU mesh")

STEPS = 10


def _mesh():
    return dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])


def _mlp():
    r = np.random.default_rng(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(16, 32), paddle.nn.ReLU(), paddle.nn.Linear(32, 8))
    for p in net.parameters():
        p.set_value((r.standard_normal(p.shape) * 0.3).astype("float32"))
    return net


def _megatron(name, layer, mesh):
    """Column-parallel first Linear, row-parallel second (replicated over dp)."""
    if name == "0":
        layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate(), dist.Shard(1)])
        layer.bias = dist.shard_tensor(layer.bias, mesh, [dist.Replicate(), dist.Shard(0)])
    elif name == "2":
        layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate(), dist.Shard(0)])


_DATA = np.random.default_rng(1)
XS = _DATA.standard_normal((STEPS, 8, 16)).astype("float32")
YS = _DATA.standard_normal((STEPS, 8, 8)).astype("float32")
EXPECTED = {
    "0.weight": [dist.Replicate(), dist.Shard(1)],
    "0.bias": [dist.Replicate(), dist.Shard(0)],
    "2.weight": [dist.Replicate(), dist.Shard(0)],
    "2.bias": [dist.Replicate(), dist.Replicate()],
}


def _train(mesh, static: bool, steps: int = STEPS):
    net = _mlp()
    if mesh is not None:
        dist.shard_layer(net, mesh, _megatron)
    opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=net.parameters())

    def step(x, y):
        loss = paddle.nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    if static:
        step = paddle.jit.to_static(step)
    losses, batch = [], None
    for i in range(steps):
        x, y = paddle.to_tensor(XS[i]), paddle.to_tensor(YS[i])
        if mesh is not None:  # the batch is split over dp
            x = dist.shard_tensor(x, mesh, [dist.Shard(0), dist.Replicate()])
            y = dist.shard_tensor(y, mesh, [dist.Shard(0), dist.Replicate()])
        batch = (x, y)
        losses.append(float(step(x, y)))
    return np.array(losses), net, opt, step, batch


@pytest.fixture(scope="module")
def trained():
    mesh = _mesh()
    return {"single": _train(None, True), "sharded": _train(mesh, True), "mesh": mesh}


def compiled_text(static_fn, *args) -> str:
    """Optimized HLO of the compiled entry a to_static function last ran."""
    entry = [e for es in static_fn._cache.values() for e in es if e.compiled is not None][-1]
    return entry.compiled.as_text()


def _collectives(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = re.search(
            r"[\s)](all-reduce|all-gather|reduce-scatter|all-to-all|"
            r"collective-permute)(?:-start)?\(",
            line,
        )
        if m:
            groups = re.search(r"replica_groups=(\{[^=]*?\}\}|\S+ \{[^}]*\})", line)
            out.setdefault(m.group(1), []).append(groups.group(1) if groups else "")
    return out


# -- training -----------------------------------------------------------------------------------
def test_sharded_mlp_matches_single_device(trained):
    single, sharded = trained["single"][0], trained["sharded"][0]
    np.testing.assert_allclose(sharded, single, rtol=1e-5)
    assert sharded[-1] < sharded[0]


def test_param_and_optimizer_state_placements(trained):
    _, net, opt, _, _ = trained["sharded"]
    mesh = trained["mesh"]
    for name, p in net.named_parameters():
        assert p.is_dist() and p.process_mesh == mesh
        assert p.placements == EXPECTED[name], name
        spec = p._value.sharding.spec
        want = {"0.weight": (None, "mp"), "0.bias": ("mp",), "2.weight": ("mp",), "2.bias": ()}[
            name
        ]
        assert tuple(spec) == want, (name, spec)
        # the cleared gradient written back by the compiled step keeps the layout too
        assert p.grad is None or p.grad._value.sharding == p._value.sharding, name
    by_param = {p.name: n for n, p in net.named_parameters()}
    states = 0
    for key, v in opt.state_dict().items():
        owner = next((pn for pn in by_param if key.startswith(pn + "_")), None)
        if owner is None or not isinstance(v, paddle.Tensor) or v.ndim == 0:
            continue
        if v.shape != net.state_dict()[by_param[owner]].shape:
            continue  # beta-power accumulators
        states += 1
        assert v.placements == EXPECTED[by_param[owner]], key
    assert states == 8  # moment1 + moment2 for 4 parameters


def test_compiled_step_collectives(trained):
    _, _, _, step, batch = trained["sharded"]
    cols = _collectives(compiled_text(step, *batch))
    mp_groups = "{{0,1,2,3},{4,5,6,7}}"
    reduces = cols.get("all-reduce", [])
    # the row-parallel Linear sums its partial outputs over mp
    assert mp_groups in reduces, cols
    # data-parallel gradients (and the loss) are summed over dp
    assert any(g != mp_groups for g in reduces), cols
    # Megatron layout: weights are never gathered
    assert "all-gather" not in cols, cols


def test_eager_sharded_steps_match():
    single = _train(None, False, steps=3)[0]
    sharded, net, *_ = _train(_mesh(), False, steps=3)
    np.testing.assert_allclose(sharded, single, rtol=1e-5)
    for name, p in net.named_parameters():
        assert p.placements == EXPECTED[name]
        if p.grad is not None:
            assert p.grad._value.sharding == p._value.sharding


# -- autograd and to_static -------------------------------------------------------------------
def test_grad_flows_through_shard_tensor_and_reshard():
    mesh = _mesh()
    x = paddle.to_tensor(np.arange(32, dtype="float32").reshape(4, 8), stop_gradient=False)
    d = dist.shard_tensor(x, mesh, [dist.Shard(0), dist.Shard(1)])
    assert not d.stop_gradient
    r = dist.reshard(d, mesh, [dist.Replicate(), dist.Replicate()])
    (r * r).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.numpy())
    assert not x.grad.is_dist()  # a dense input gets a dense gradient


def test_param_grad_takes_param_layout():
    mesh = _mesh()
    w = dist.shard_tensor(
        paddle.create_parameter([8, 4], "float32"), mesh, [dist.Replicate(), dist.Shard(1)]
    )
    a = dist.shard_tensor(paddle.ones([4, 8]), mesh, [dist.Shard(0), dist.Shard(1)])
    (a @ w).sum().backward()
    assert w.grad.placements == [dist.Replicate(), dist.Shard(1)]
    np.testing.assert_allclose(w.grad.numpy(), np.full((8, 4), 4.0))


def test_to_static_reshard_inserts_all_gather():
    mesh = _mesh()

    @paddle.jit.to_static
    def gather(a):
        return dist.reshard(a, mesh, [dist.Replicate(), dist.Replicate()]) * 2

    a = dist.shard_tensor(
        paddle.to_tensor(np.arange(32, dtype="float32").reshape(4, 8)),
        mesh,
        [dist.Shard(0), dist.Shard(1)],
    )
    out = gather(a)
    out = gather(a)
    assert out.placements == [dist.Replicate(), dist.Replicate()]
    np.testing.assert_allclose(out.numpy(), 2 * np.arange(32).reshape(4, 8))
    assert "all-gather" in _collectives(compiled_text(gather, a))


def test_shard_and_reshard_inside_to_static_train_step():
    mesh = _mesh()

    def run(static):
        paddle.seed(3)
        lin = paddle.nn.Linear(8, 8)
        dist.shard_layer(lin, mesh, shard_specs={"weight": [None, "mp"]})
        opt = paddle.optimizer.SGD(0.1, parameters=lin.parameters())

        def step(x):
            x = dist.shard_tensor(x, mesh, [dist.Shard(0), dist.Replicate()])
            h = dist.reshard(lin(x), mesh, [dist.Shard(0), dist.Replicate()])
            loss = (h * h).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss

        step = paddle.jit.to_static(step) if static else step
        x = paddle.to_tensor(XS[0][:4, :8])
        return [float(step(x)) for _ in range(3)], lin

    eager, _ = run(False)
    static, lin = run(True)
    np.testing.assert_allclose(static, eager, rtol=1e-5)
    assert lin.weight.placements == [dist.Replicate(), dist.Shard(1)]


def test_partial_reshard_and_local_values():
    mesh = _mesh()
    x = paddle.to_tensor(np.arange(32, dtype="float32").reshape(4, 8))
    p = dist.shard_tensor(x, mesh, [dist.Replicate(), dist.Partial()])
    assert p.placements == [dist.Replicate(), dist.Partial()]
    np.testing.assert_allclose(
        dist.reshard(p, mesh, [dist.Replicate(), dist.Replicate()]).numpy(), x.numpy()
    )
    m = dist.shard_tensor(x, mesh, [dist.Partial(dist.ReduceType.kRedMax), dist.Replicate()])
    assert m.placements[0] == dist.Partial(dist.ReduceType.kRedMax)
    np.testing.assert_allclose(
        dist.reshard(m, mesh, [dist.Shard(1), dist.Replicate()]).numpy(), x.numpy()
    )
    y = p + 1  # ops see the logical (reduced) value; their results are plain sharded tensors
    assert y.placements == [dist.Replicate(), dist.Replicate()]
    s = dist.shard_tensor(x, mesh, [dist.Shard(0), dist.Shard(1)])
    np.testing.assert_array_equal(s._local_value().numpy(), x.numpy()[:2, :2])
    assert s._local_value().place == paddle.CPUPlace()


def test_uneven_shard_is_stored_replicated_and_reported():
    mesh = _mesh()
    d = dist.shard_tensor(paddle.ones([3, 8]), mesh, [dist.Shard(0), dist.Replicate()])
    assert d.placements == [dist.Shard(0), dist.Replicate()]
    assert tuple(d._value.sharding.spec) == (None,)
    assert d._local_value().shape == [2, 8]
    np.testing.assert_allclose((d * 2).numpy(), np.full((3, 8), 2.0))


def test_unshard_and_set_value():
    mesh = _mesh()
    d = dist.shard_tensor(paddle.ones([4, 8]), mesh, [dist.Shard(0), dist.Shard(1)])
    u = dist.unshard_dtensor(d)
    assert not u.is_dist() and u.placements is None
    assert (u + paddle.ones([4, 8])).shape == [4, 8]  # mixes with dense tensors
    w = dist.shard_tensor(
        paddle.create_parameter([8, 4], "float32"), mesh, [dist.Replicate(), dist.Shard(1)]
    )
    w.set_value(np.ones((8, 4), "float32"))
    assert w.placements == [dist.Replicate(), dist.Shard(1)]
    assert tuple(w._value.sharding.spec) == (None, "mp")


def test_state_dict_roundtrip_keeps_shardings():
    mesh = _mesh()
    net = dist.shard_layer(_mlp(), mesh, _megatron)
    sd = {k: v.numpy() * 0 + 1 for k, v in net.state_dict().items()}
    net.set_state_dict(sd)
    for name, p in net.named_parameters():
        assert p.placements == EXPECTED[name]
        np.testing.assert_allclose(p.numpy(), 1.0)


# -- shard_layer forms --------------------------------------------------------------------------
def test_shard_layer_legacy_shard_specs_list_and_dict():
    mesh = _mesh()
    net = dist.shard_layer(_mlp(), process_mesh=mesh, shard_specs=[None, "mp"])
    pl = {n: p.placements for n, p in net.named_parameters()}
    assert pl["0.weight"] == [dist.Replicate(), dist.Shard(1)]
    assert pl["2.weight"] == [dist.Replicate(), dist.Shard(1)]
    assert pl["0.bias"] == [dist.Replicate(), dist.Replicate()]
    net = dist.shard_layer(
        _mlp(),
        process_mesh=mesh,
        shard_specs={"0.weight": [None, "mp"], "2.weight": ["mp", None], "0.bias": ["mp"]},
    )
    assert [p.placements for _, p in net.named_parameters()] == list(EXPECTED.values())
    with pytest.raises(ValueError, match="unknown parameters"):
        dist.shard_layer(_mlp(), process_mesh=mesh, shard_specs={"nope": [None]})
    t = dist.shard_tensor(paddle.ones([4, 8]), mesh, shard_spec=["dp", "mp"])
    assert t.placements == [dist.Shard(0), dist.Shard(1)]


def test_shard_layer_input_output_fn():
    mesh = _mesh()
    seen = {}

    def input_fn(inputs, m):
        return tuple(dist.shard_tensor(x, m, [dist.Shard(0), dist.Replicate()]) for x in inputs)

    def output_fn(outputs, m):
        seen["out"] = outputs.placements
        return dist.reshard(outputs, m, [dist.Replicate(), dist.Replicate()])

    net = dist.shard_layer(_mlp(), mesh, input_fn=input_fn, output_fn=output_fn)
    out = net(paddle.to_tensor(XS[0]))
    assert seen["out"][0] == dist.Shard(0)
    assert out.placements == [dist.Replicate(), dist.Replicate()]
    np.testing.assert_allclose(
        out.numpy(), _mlp()(paddle.to_tensor(XS[0])).numpy(), rtol=1e-5, atol=1e-6
    )


# -- objects ------------------------------------------------------------------------------------
def test_mesh_jax_mesh_and_errors():
    mesh = _mesh()
    jm = mesh.jax_mesh
    assert jm.axis_names == ("dp", "mp")
    assert [d.id for d in jm.devices.ravel()] == list(range(8))
    big = dist.ProcessMesh(list(range(16)))
    with pytest.raises(RuntimeError, match="no device"):
        dist.shard_tensor(paddle.ones([16]), big, [dist.Shard(0)])
    with pytest.raises(TypeError, match="Placement"):
        dist.shard_tensor(paddle.ones([4]), mesh, ["dp", None])
    with pytest.raises(ValueError, match="out of range"):
        dist.shard_tensor(paddle.ones([4]), mesh, [dist.Shard(1), dist.Replicate()])
    assert pickle.loads(pickle.dumps(mesh)) == mesh
    assert copy.deepcopy(mesh).dim_names == ["dp", "mp"]
    assert dist.get_mesh() is None or isinstance(dist.get_mesh(), dist.ProcessMesh)


def test_distributed_module_alias():
    import parallel

    assert dist.ProcessMesh is parallel.ProcessMesh
    assert paddle.distributed is dist
    x = dist.shard_tensor(paddle.ones([4]), _mesh(), [dist.Shard(0), dist.Replicate()])
    assert isinstance(x, paddle.Tensor) and x.is_dist()
    assert not paddle.ones([2]).is_dist() and paddle.ones([2]).placements is None


def test_tensor_placements_without_importing_distributed():
    """The core derives placements from the array's sharding: a process that never imports
    paddle.distributed prints dense tensors as before and still reads a sharded array's
    layout (nothing patches Tensor when parallel is imported)."""
    import subprocess
    import sys

    code = (
        "import sys, jax, numpy as np, paddle\n"
        "from jax.sharding import Mesh, NamedSharding, PartitionSpec as P\n"
        "x = paddle.ones([2, 3])\n"
        "assert x.placements is None and x.process_mesh is None and not x.is_dist()\n"
        "assert x._local_value() is x and 'process_mesh' not in repr(x)\n"
        "m = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ('dp', 'mp'))\n"
        "a = jax.device_put(np.arange(8.0, dtype='float32').reshape(4, 2),\n"
        "                   NamedSharding(m, P('mp')))\n"
        "t = paddle.to_tensor(a)\n"
        "assert t.is_dist() and [repr(p) for p in t.placements] == ['Replicate()',\n"
        "                                                           'Shard(dim=0)'], t.placements\n"
        "assert str(t.process_mesh) == '{shape: [2,2], process_ids: [0,1,2,3], '\\\n"
        "    'dim_names: [dp,mp]}'\n"
        "assert 'placements=[Replicate(), Shard(dim=0)], GlobalDenseTensor=' in repr(t)\n"
        "assert 'parallel' not in sys.modules\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
