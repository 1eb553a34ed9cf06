"""Distributed training on the 8-device CPU mesh (tests/conftest.py): shard_optimizer stages,
dist.to_static/DistModel, shard_dataloader, recompute, fleet/DataParallel, and a 2-process
jax.distributed run. API facts against real Paddle are in tests/cases/parallel_train.py."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import jax
import numpy as np
import paddle.distributed as dist
import pytest
from jax.sharding import PartitionSpec as P
from paddle.distributed import fleet
from paddle.distributed.fleet.utils import recompute

import paddle
from paddle_compat._core import deferred
from paddle_compat.optimizer import _fused
from parallel import _env

pytestmark = pytest.mark.skipif(
    len(jax.devices()) < 8, reason="needs the 8-device CPU mesh of tests/conftest.py"
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def env_state():
    """Restore the process-wide parallel-environment flags after the test."""
    saved = dict(_env._state)
    yield
    _env._state.clear()
    _env._state.update(saved)


def _mesh():
    return dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])


class MLP(paddle.nn.Layer):
    def __init__(self, seed: int = 0):
        super().__init__()
        self.fc1 = paddle.nn.Linear(8, 16)
        self.fc2 = paddle.nn.Linear(16, 4)
        rs = np.random.RandomState(seed)
        for p in self.parameters():
            p.set_value((rs.standard_normal(p.shape) * 0.3).astype("float32"))

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def _shard_fn(name, layer, mesh):
    """fc1 column-parallel, fc2 row-parallel over "mp"."""
    if name == "fc1":
        layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate(), dist.Shard(1)])
        layer.bias = dist.shard_tensor(layer.bias, mesh, [dist.Replicate(), dist.Shard(0)])
    elif name == "fc2":
        layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate(), dist.Shard(0)])


class _Pairs(paddle.io.Dataset):
    def __init__(self, n=64):
        rs = np.random.RandomState(1)
        self.x = rs.rand(n, 8).astype("float32")
        self.y = rs.rand(n, 4).astype("float32")

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


def _spec(t):
    return t._value.sharding.spec


def _rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-12)))


def _dense_losses(batches, steps_per_update=1, opt_cls=paddle.optimizer.AdamW, lr=0.01):
    """Single-device eager reference on the same batches."""
    m = MLP()
    opt = opt_cls(learning_rate=lr, parameters=m.parameters())
    out = []
    for i, (x, y) in enumerate(batches):
        loss = paddle.nn.functional.mse_loss(m(x), y)
        (loss / steps_per_update if steps_per_update > 1 else loss).backward()
        if (i + 1) % steps_per_update == 0:
            opt.step()
            opt.clear_grad()
        out.append(float(loss))
    return out, m


# -- shard_optimizer ---------------------------------------------------------------------------
# expected layouts on the 2x4 (dp, mp) mesh: fc1 column- and fc2 row-parallel
_PARAM = {"fc1.weight": P(None, "mp"), "fc1.bias": P("mp"), "fc2.weight": P("mp"), "fc2.bias": P()}
_SHARDED = {
    "fc1.weight": P("dp", "mp"),
    "fc1.bias": P("mp"),
    "fc2.weight": P("mp", "dp"),
    "fc2.bias": P("dp"),
}


@pytest.mark.parametrize("stage", [0, 1, 2, 3])
def test_shard_optimizer_stage_layouts(stage):
    mesh = _mesh()
    rs = np.random.RandomState(2)
    batches = [
        (
            paddle.to_tensor(rs.rand(16, 8).astype("float32")),
            paddle.to_tensor(rs.rand(16, 4).astype("float32")),
        )
        for _ in range(2)
    ]
    ref, _ = _dense_losses(batches)
    m = dist.shard_layer(MLP(), mesh, _shard_fn)
    opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=m.parameters())
    fn = {1: dist.ShardingStage1, 2: dist.ShardingStage2, 3: dist.ShardingStage3}.get(stage)
    opt = dist.shard_optimizer(opt, fn("dp", mesh) if fn else None)
    assert isinstance(opt, paddle.optimizer.Optimizer)
    params = dict(m.named_parameters())
    losses = []
    for x, y in batches:
        loss = paddle.nn.functional.mse_loss(m(x), y)
        loss.backward()
        grads = {k: _spec(p.grad) for k, p in params.items()}
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert _rel(losses, ref) < 1e-5
    state_layout = _SHARDED if stage else _PARAM
    param_layout = _SHARDED if stage == 3 else _PARAM
    for k, p in params.items():
        assert _spec(p) == param_layout[k], k
        assert p.placements is not None
        if stage >= 2:
            assert grads[k] == _SHARDED[k], k
        for acc in ("moment1", "moment2"):
            t = opt._get_accumulator_master(acc, p)
            assert _spec(t) == state_layout[k], (k, acc)
        for acc in ("beta1_pow_acc", "beta2_pow_acc"):
            assert _spec(opt._get_accumulator_master(acc, p)) == P(), (k, acc)
    assert sorted(opt.state_dict()) == sorted(opt._inner_opt.state_dict())


def test_shard_optimizer_dense_params_with_stage_mesh():
    """Dense parameters are replicated over the stage's mesh, their state split along it."""
    mesh = dist.ProcessMesh(list(range(8)), dim_names=["dp"])
    m = MLP()
    opt = dist.shard_optimizer(
        paddle.optimizer.Adam(parameters=m.parameters()), dist.ShardingStage1("dp", mesh)
    )
    x = paddle.to_tensor(np.ones((8, 8), "float32"))
    m(x).sum().backward()
    opt.step()
    assert _spec(m.fc1.weight) == P()
    assert _spec(opt._get_accumulator_master("moment1", m.fc1.weight)) == P("dp")
    assert _spec(opt._get_accumulator_master("moment1", m.fc2.bias)) == P(None)  # 4 % 8


# -- DistModel -------------------------------------------------------------------------------
def _loader_batches(dl):
    return [
        (paddle.to_tensor(np.asarray(x._value)), paddle.to_tensor(np.asarray(y._value)))
        for x, y in dl
    ]


@pytest.mark.parametrize("strategy", [None, "sharding1"])
def test_dist_model_2x4_matches_single_device(strategy):
    mesh = _mesh()
    dl = dist.shard_dataloader(
        paddle.io.DataLoader(_Pairs(80), batch_size=8), [mesh], shard_dims="dp"
    )
    assert len(dl) == 10
    dense = _loader_batches(dl)
    ref, ref_model = _dense_losses(dense)
    m = dist.shard_layer(MLP(), mesh, _shard_fn)
    opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=m.parameters())
    st = dist.Strategy({"sharding": {"enable": True, "stage": 1}}) if strategy else None
    dm = dist.to_static(m, dl, paddle.nn.MSELoss(), opt, strategy=st)
    with pytest.raises(ValueError, match="train"):
        dm(*dense[0])
    dm.train()
    losses = []
    for i, (x, y) in enumerate(dl):
        assert _spec(x) == P("dp") and x.placements == [dist.Shard(0), dist.Replicate()]
        if i == 3:
            calls = _fused.stats["compiled_calls"]
        loss = dm(x, y)
        assert isinstance(loss, np.ndarray) and loss.shape == () and loss.dtype == np.float32
        losses.append(float(loss))
    assert _fused.stats["compiled_calls"] == calls  # the update runs inside the compiled step
    (entries,) = dm._fns["train"]._cache.values()
    assert len(entries) == 1
    # the one compiled program: all-reduces (row-parallel fc2, dp gradients); ZeRO-1 also
    # all-gathers the parameters it updated shard by shard
    state = [t._value for t in entries[0].alive_state()]
    hlo = jax.jit(entries[0].pure).lower(state, [x._value, y._value]).compile().as_text()
    assert "all-reduce" in hlo
    assert ("all-gather" in hlo) == bool(strategy)
    assert _rel(losses, ref) < 1e-5
    # layouts survive the compiled steps
    sd = dm.state_dict()
    for k, spec in _PARAM.items():
        assert _spec(sd[k]) == spec and sd[k].stop_gradient
    state_layout = _SHARDED if strategy else _PARAM
    inner = dm._optimizer._inner_opt
    for k, p in m.named_parameters():
        assert _spec(inner._get_accumulator_master("moment1", p)) == state_layout[k]
    assert any(k.endswith("moment1_0") for k in sd) and len(sd) == 4 + 16 + 1
    for a, b in zip(m.parameters(), ref_model.parameters()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    # predict and eval equal eager
    x, y = dense[0]
    dm.predict()
    out = dm(x)
    np.testing.assert_allclose(out, m(x).numpy(), rtol=1e-6, atol=1e-6)
    dm.eval()
    np.testing.assert_allclose(dm(x, y), paddle.nn.functional.mse_loss(m(x), y).numpy(), rtol=1e-6)


def test_dist_model_gradient_merge():
    mesh = _mesh()
    dl = dist.shard_dataloader(
        paddle.io.DataLoader(_Pairs(32), batch_size=8), [mesh], shard_dims="dp"
    )
    ref, _ = _dense_losses(
        _loader_batches(dl), steps_per_update=2, opt_cls=paddle.optimizer.SGD, lr=0.1
    )
    m = dist.shard_layer(MLP(), mesh, _shard_fn)
    st = dist.Strategy({"gradient_merge": {"enable": True, "k_steps": 2}})
    dm = dist.to_static(
        m,
        dl,
        paddle.nn.MSELoss(),
        paddle.optimizer.SGD(0.1, parameters=m.parameters()),
        strategy=st,
    )
    dm.train()
    losses = [float(dm(x, y)) for x, y in dl]
    assert _rel(losses, ref) < 1e-5


# -- shard_dataloader ------------------------------------------------------------------------
class _Index(paddle.io.Dataset):
    def __init__(self, n=16, as_dict=False):
        self.n, self.as_dict = n, as_dict

    def __getitem__(self, i):
        x, y = np.full([2], i, "float32"), np.array([i], "int64")
        return {"x": x, "y": y} if self.as_dict else (x, y)

    def __len__(self):
        return self.n


def _rows(t):
    return np.asarray(t._value)[:, 0].astype(int).tolist()


def test_shard_dataloader_batches_sharded_on_dp():
    mesh = _mesh()
    dl = dist.shard_dataloader(paddle.io.DataLoader(_Index(), batch_size=8), mesh, shard_dims="dp")
    assert len(dl) == 2
    seen = []
    for x, y in dl():
        assert _spec(x) == P("dp") and _spec(y) == P("dp")
        assert x.placements == [dist.Shard(0), dist.Replicate()]
        assert x.process_mesh == mesh and x.shape == [8, 2]
        seen.append(_rows(x))
    # the dp ranks' DistributedBatchSampler shares, concatenated in rank order
    assert seen == [list(range(8)), list(range(8, 16))]
    # a shuffled loader: the same shares Paddle's per-rank samplers would read
    loader = paddle.io.DataLoader(_Index(), batch_size=8, shuffle=True)
    dl = dist.shard_dataloader(loader, mesh, shard_dims=0)
    got = [_rows(x) for x, _ in dl]
    want = [
        a + b
        for a, b in zip(
            *[
                [
                    list(map(int, bt))
                    for bt in paddle.io.DistributedBatchSampler(
                        _Index(), 4, num_replicas=2, rank=r, shuffle=True
                    )
                ]
                for r in range(2)
            ]
        )
    ]
    assert got == want
    # not split / dict batches with input_keys / one mesh per item
    x, _ = next(iter(dist.shard_dataloader(paddle.io.DataLoader(_Index(), batch_size=8), mesh)))
    assert _spec(x) == P() and x.placements == [dist.Replicate(), dist.Replicate()]
    b = next(
        iter(
            dist.shard_dataloader(
                paddle.io.DataLoader(_Index(as_dict=True), batch_size=8),
                mesh,
                input_keys=["x"],
                shard_dims="dp",
            )
        )
    )
    assert _spec(b["x"]) == P("dp") and not b["y"].is_dist()
    m1 = dist.ProcessMesh([0, 1, 2, 3], dim_names=["dp"])
    m2 = dist.ProcessMesh([4, 5, 6, 7], dim_names=["dp"])
    x, y = next(
        iter(
            dist.shard_dataloader(
                paddle.io.DataLoader(_Index(), batch_size=8), [m1, m2], shard_dims="dp"
            )
        )
    )
    assert x.process_mesh == m1 and y.process_mesh == m2 and _spec(y) == P("dp")
    with pytest.raises(ValueError, match="shard_dims"):
        dist.shard_dataloader(paddle.io.DataLoader(_Index()), mesh, is_dataset_splitted=True)


# -- recompute -------------------------------------------------------------------------------
class _Block(paddle.nn.Layer):
    def __init__(self, p_drop=0.3):
        super().__init__()
        self.fc = paddle.nn.Linear(8, 8)
        self.bn = paddle.nn.BatchNorm1D(8)
        self.drop = paddle.nn.Dropout(p_drop)

    def forward(self, x):
        return self.drop(self.bn(paddle.nn.functional.gelu(self.fc(x))))


class _Net(paddle.nn.Layer):
    def __init__(self, use_rc, p_drop=0.3):
        super().__init__()
        self.use_rc = use_rc
        self.inp = paddle.nn.Linear(4, 8)
        self.block = _Block(p_drop)
        self.out = paddle.nn.Linear(8, 1)

    def forward(self, x):
        h = self.inp(x)
        h = recompute(self.block, h) if self.use_rc else self.block(h)
        return self.out(h)


def _rc_train(use_rc, static=False, steps=2, p_drop=0.3):
    paddle.seed(7)
    net = _Net(use_rc, p_drop)
    opt = paddle.optimizer.Adam(0.01, parameters=net.parameters())
    x = paddle.to_tensor(np.random.RandomState(0).rand(6, 4).astype("float32"))

    def step(x):
        loss = (net(x) ** 2).mean()
        loss.backward()
        grads = [p.grad * 1.0 for p in net.parameters() if not p.stop_gradient]
        opt.step()
        opt.clear_grad()
        return loss, grads

    if static:
        step = paddle.jit.to_static(step)
    out = [step(x) for _ in range(steps)]
    losses = [float(loss) for loss, _ in out]
    grads = [g.numpy() for _, gs in out for g in gs]
    state = [np.asarray(t._value) for t in list(net.parameters()) + list(net.buffers())]
    return losses, grads, state


def test_recompute_eager_equals_plain():
    a, b = _rc_train(False), _rc_train(True)
    # deferred execution compiles the plain step as one program while the recompute block
    # replays op by op: the compiled-vs-eager tolerance of the tests below applies
    rtol, atol = (1e-5, 1e-6) if deferred.enabled() else (1e-6, 1e-7)
    for u, v in zip(a, b):  # losses, gradients, parameters and running statistics
        for s, t in zip(u, v):
            np.testing.assert_allclose(s, t, rtol=rtol, atol=atol)


def test_recompute_under_to_static_uses_checkpoint(monkeypatch):
    import parallel._recompute as rc

    used = []
    real = jax.checkpoint
    monkeypatch.setattr(rc.jax, "checkpoint", lambda f, **kw: used.append(1) or real(f, **kw))
    a, b = _rc_train(False, static=True), _rc_train(True, static=True)
    assert used  # the traced backward rematerializes the block with jax.checkpoint
    eager = _rc_train(True)
    np.testing.assert_allclose(a[0], b[0], rtol=1e-6)
    # compiled dropout masks come from the JAX key, eager ones from Paddle's host stream
    assert a[0][0] != eager[0][0]
    for s, t in zip(a[2], b[2]):
        np.testing.assert_allclose(s, t, rtol=1e-5, atol=1e-6)


def test_recompute_to_static_equals_eager_without_dropout():
    a, eager = _rc_train(True, static=True, p_drop=0.0), _rc_train(True, p_drop=0.0)
    np.testing.assert_allclose(a[0], eager[0], rtol=1e-5)
    for s, t in zip(a[2], eager[2]):
        np.testing.assert_allclose(s, t, rtol=1e-5, atol=1e-6)


def test_recompute_grad_hooks_and_sequential():
    paddle.seed(3)
    seq = paddle.nn.Sequential(
        paddle.nn.Linear(4, 6),
        paddle.nn.Tanh(),
        paddle.nn.Linear(6, 6),
        paddle.nn.Tanh(),
        paddle.nn.Linear(6, 2),
    )
    x = paddle.to_tensor(np.random.RandomState(1).rand(3, 4).astype("float32"), stop_gradient=False)
    calls = []
    seq[0].weight.register_hook(lambda g: calls.append(1))
    plain = seq(x)
    g_plain = paddle.grad(plain.sum(), [x, seq[0].weight])
    n_plain = len(calls)
    out = recompute(seq, x, use_reentrant=False)
    g_rc = paddle.grad(out.sum(), [x, seq[0].weight])
    assert len(calls) == 2 * n_plain  # the hook fires once per backward, not per recompute
    np.testing.assert_allclose(out.numpy(), plain.numpy(), rtol=1e-6)
    for a, b in zip(g_rc, g_plain):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    from paddle.distributed.fleet.recompute import recompute_sequential

    out2 = recompute_sequential({"segments": 2}, seq, x)
    np.testing.assert_allclose(out2.numpy(), plain.numpy(), rtol=1e-6)
    (g2,) = paddle.grad(out2.sum(), [x])
    np.testing.assert_allclose(g2.numpy(), g_plain[0].numpy(), rtol=1e-6)


# -- fleet / DataParallel ----------------------------------------------------------------------
def _train(model, opt, steps=3, batch=16):
    rs = np.random.RandomState(4)
    out = []
    for _ in range(steps):
        x = paddle.to_tensor(rs.rand(batch, 8).astype("float32"))
        y = paddle.to_tensor(rs.rand(batch, 4).astype("float32"))
        loss = paddle.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        out.append(float(loss))
    return out


def test_data_parallel_single_device_forwards(env_state):
    _env._state["env_called"] = False
    m = MLP()
    dp = dist.DataParallel(m)
    assert dp.mesh is None
    a = _train(dp, paddle.optimizer.Adam(0.01, parameters=dp.parameters()))
    m2 = MLP()
    b = _train(m2, paddle.optimizer.Adam(0.01, parameters=m2.parameters()))
    assert a == b
    assert list(dp.state_dict()) == list(m.state_dict())


def test_fleet_data_parallel_over_devices(env_state):
    _env._state["env_called"] = False
    m0 = MLP()
    ref = _train(m0, paddle.optimizer.Adam(0.01, parameters=m0.parameters()))
    strategy = fleet.DistributedStrategy()
    strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1}
    fleet.init(is_collective=True, strategy=strategy)
    model = fleet.distributed_model(MLP())
    assert isinstance(model, dist.DataParallel) and model.mesh.shape == {"dp": 8}
    opt = fleet.distributed_optimizer(paddle.optimizer.Adam(0.01, parameters=model.parameters()))
    x = paddle.to_tensor(np.ones((16, 8), "float32"))
    assert model._layers.fc1.weight._value.sharding.spec == P()
    assert model(x)._value.sharding.spec == P("dp")  # the batch is split over the devices
    got = _train(model, opt)
    assert _rel(got, ref) < 1e-6


# -- two processes -------------------------------------------------------------------------------
_MP_SCRIPT = r"""
import json, os, sys
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
import jax
jax.distributed.initialize(os.environ["COORD"], 2, int(sys.argv[1]))
import numpy as np, paddle
import paddle.distributed as dist
group = dist.init_parallel_env()
dist.barrier()
sub = dist.new_group([1])
env = dist.ParallelEnv()
class DS(paddle.io.Dataset):
    def __init__(self):
        rs = np.random.RandomState(0)
        self.x = rs.rand(16, 4).astype("float32"); self.y = rs.rand(16, 2).astype("float32")
    def __getitem__(self, i): return self.x[i], self.y[i]
    def __len__(self): return 16
def make():
    paddle.seed(1)
    return paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
def shard_fn(name, layer, pm):
    if name == "0":
        layer.weight = dist.shard_tensor(layer.weight, pm, [dist.Replicate(), dist.Shard(1)])
    if name == "2":
        layer.weight = dist.shard_tensor(layer.weight, pm, [dist.Replicate(), dist.Shard(0)])
ds = DS()
mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
dl = dist.shard_dataloader(paddle.io.DataLoader(ds, batch_size=8), [mesh], shard_dims="dp")
m = dist.shard_layer(make(), mesh, shard_fn)
dm = dist.to_static(m, dl, paddle.nn.MSELoss(), paddle.optimizer.SGD(0.1, parameters=m.parameters()))
dm.train()
losses = [float(dm(x, y)) for x, y in dl]
ref_m = make()
opt = paddle.optimizer.SGD(0.1, parameters=ref_m.parameters())
ref = []
for step in range(2):
    idx = list(range(step * 8, step * 8 + 8))
    loss = paddle.nn.functional.mse_loss(ref_m(paddle.to_tensor(ds.x[idx])), paddle.to_tensor(ds.y[idx]))
    loss.backward(); opt.step(); opt.clear_grad(); ref.append(float(loss))
# paddle.DataParallel: each process its own half of the batch, gradients averaged
dp = dist.DataParallel(make())
assert dp.mesh is not None  # two local devices: the local half is split over them too
dopt = paddle.optimizer.SGD(0.1, parameters=dp.parameters())
me = dist.get_rank()
dp_losses = []
for step in range(2):
    idx = list(range(step * 8 + me * 4, step * 8 + me * 4 + 4))
    loss = paddle.nn.functional.mse_loss(dp(paddle.to_tensor(ds.x[idx])), paddle.to_tensor(ds.y[idx]))
    loss.backward(); dopt.step(); dopt.clear_grad(); dp_losses.append(float(loss))
dp_w = [np.abs(a.numpy() - b.numpy()).max().item() for a, b in zip(dp.parameters(), ref_m.parameters())]
dist.barrier()
print("RESULT " + json.dumps({"dp_losses": dp_losses, "dp_w": dp_w,
    "rank": dist.get_rank(), "world": dist.get_world_size(), "init": dist.is_initialized(),
    "group": [group.rank, group.nranks, group.ranks], "sub": sub.rank,
    "env": [env.rank, env.world_size], "losses": losses, "ref": ref}), flush=True)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_processes_env_dist_model_data_parallel(tmp_path):
    script = tmp_path / "mp.py"
    script.write_text(_MP_SCRIPT)
    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_PLATFORMS")}
    env["COORD"] = f"127.0.0.1:{_free_port()}"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    # processes under jax.distributed ignore SIGTERM: kill with SIGKILL
    procs = [
        subprocess.Popen(
            ["timeout", "-s", "KILL", "150", sys.executable, str(script), str(r)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        for r in range(2)
    ]
    outs = [p.communicate() for p in procs]
    results = []
    for (out, err), p in zip(outs, procs):
        assert p.returncode == 0, err[-3000:]
        line = next(ln for ln in out.splitlines() if ln.startswith("RESULT "))
        results.append(json.loads(line[len("RESULT ") :]))
    for r, res in enumerate(results):
        assert res["rank"] == r and res["world"] == 2 and res["init"]
        assert res["group"] == [r, 2, [0, 1]] and res["env"] == [r, 2]
        assert res["sub"] == (0 if r == 1 else -1)
        assert _rel(res["losses"], res["ref"]) < 1e-5
        assert max(res["dp_w"]) < 1e-6  # DataParallel == training on the whole batch
    assert results[0]["losses"] == results[1]["losses"]
    assert results[0]["dp_losses"] != results[1]["dp_losses"]  # per-process losses
