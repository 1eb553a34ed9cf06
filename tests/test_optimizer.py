"""Optimizer mechanics the goldens cannot express: one fused compiled call per step, no
recompiles when the learning rate changes, to_static train steps, master weights, state-dict
files, user-defined regularizers/clips, options real Paddle lacks on CPU."""

from __future__ import annotations

import numpy as np
import pytest

import paddle
from paddle_compat._core import registry, segment_store
from paddle_compat.optimizer import _fused

_counter = iter(range(10**6))


def _params(n=4, seed=0, dtype="float32"):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        shape = (3, 4) if i % 2 == 0 else (4,)
        t = paddle.to_tensor(rng.standard_normal(shape).astype(dtype), stop_gradient=False)
        t.name = f"topt_{next(_counter)}"
        out.append(t)
    return out


def _set_grads(params, step, dtype="float32"):
    rng = np.random.default_rng(100 + step)
    for p in params:
        p.grad = paddle.to_tensor(rng.standard_normal(p.shape).astype(dtype))


@pytest.fixture
def count_calls(monkeypatch):
    """Counts calls of compiled fused updates and of eager ops during ``step()``."""
    calls = {"fused": 0, "ops": 0}
    run = _fused.run
    run_kernel = registry.run_kernel

    def counting_run(*args):  # one compiled program per call
        calls["fused"] += 1
        return run(*args)

    def counting_run_kernel(*a, **k):
        calls["ops"] += 1
        return run_kernel(*a, **k)

    monkeypatch.setattr(_fused, "run", counting_run)
    monkeypatch.setattr(registry, "run_kernel", counting_run_kernel)
    return calls


@pytest.mark.parametrize(
    "make",
    [
        lambda ps: paddle.optimizer.Adam(
            0.1, parameters=ps, weight_decay=0.01, grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0)
        ),
        lambda ps: paddle.optimizer.AdamW(0.1, parameters=ps),
        lambda ps: paddle.optimizer.Momentum(
            0.1, parameters=ps, use_nesterov=True, grad_clip=paddle.nn.ClipGradByValue(0.5)
        ),
        lambda ps: paddle.optimizer.Lamb(0.1, parameters=ps),
    ],
    ids=["adam", "adamw", "momentum", "lamb"],
)
def test_one_compiled_call_per_step(make, count_calls):
    params = _params(20)
    opt = make(params)
    for step in range(3):
        _set_grads(params, step)
        before = dict(count_calls)
        opt.step()
        assert count_calls["fused"] - before["fused"] == 1
        assert count_calls["ops"] == before["ops"], "step() must not dispatch per-op kernels"


def test_learning_rate_changes_do_not_recompile(monkeypatch):
    monkeypatch.setattr(_fused, "_CACHE", {})  # independent of what earlier tests compiled
    traces = []
    make = _fused._make

    def counting_make(key):
        fused = make(key)

        def traced(*args):
            traces.append(key)  # runs only while jax traces the update
            return fused(*args)

        return traced

    monkeypatch.setattr(_fused, "_make", counting_make)
    # through jax.jit, which traces here, not the segment store, which may hold the program
    monkeypatch.setattr(segment_store, "_direct", False)
    params = _params(3)
    sched = paddle.optimizer.lr.CosineAnnealingDecay(0.1, T_max=3)
    opt = paddle.optimizer.Adam(sched, parameters=params)
    builds = _fused.stats["builds"]
    for step in range(6):
        _set_grads(params, step)
        opt.step()
        sched.step()
    assert _fused.stats["builds"] - builds == 1
    assert len(traces) == 1  # traced once although the lr changed every step
    opt.set_lr_scheduler(paddle.optimizer.lr.StepDecay(0.5, 2))
    _set_grads(params, 9)
    opt.step()
    assert len(traces) == 1


def test_scheduler_lr_tensor_tracks_last_lr():
    sched = paddle.optimizer.lr.StepDecay(0.5, step_size=1, gamma=0.5)
    var = sched._lr_tensor()
    sched.step()
    assert float(var) == 0.25
    sched.set_state_dict({"last_epoch": 4, "last_lr": 0.125})
    assert float(var) == 0.125
    opt = paddle.optimizer.SGD(0.3, parameters=_params(1))
    opt.set_lr(0.7)
    assert float(opt._lr_tensor()) == pytest.approx(0.7)
    opt._learning_rate = 0.2  # some code assigns the attribute directly
    assert float(opt._lr_tensor()) == pytest.approx(0.2)


def _train_loop(static, make_opt, steps=6):
    rng = np.random.default_rng(0)
    w = paddle.to_tensor(rng.standard_normal((3, 2)).astype("float32"), stop_gradient=False)
    b = paddle.to_tensor(np.zeros(2, "float32"), stop_gradient=False)
    w.name, b.name = f"ts_w_{next(_counter)}", f"ts_b_{next(_counter)}"
    x = paddle.to_tensor(rng.standard_normal((4, 3)).astype("float32"))
    sched = paddle.optimizer.lr.StepDecay(0.1, 2, 0.5)
    opt = make_opt(sched, [w, b])

    def train(x):
        loss = (paddle.matmul(x, w) + b).pow(2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    f = paddle.jit.to_static(train) if static else train
    losses = []
    for _ in range(steps):
        losses.append(float(f(x)))
        sched.step()
    return (
        losses,
        [w.numpy(), b.numpy()],
        [v.numpy() for k, v in opt.state_dict().items() if k != "LR_Scheduler"],
    )


@pytest.mark.parametrize(
    "make_opt",
    [
        lambda lr, ps: paddle.optimizer.Adam(
            lr, parameters=ps, weight_decay=0.01, grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0)
        ),
        lambda lr, ps: paddle.optimizer.Momentum(lr, parameters=ps, use_nesterov=True),
    ],
    ids=["adam", "momentum"],
)
def test_to_static_train_step_matches_eager(make_opt):
    eager = _train_loop(False, make_opt)
    static = _train_loop(True, make_opt)
    np.testing.assert_allclose(static[0], eager[0], rtol=1e-6)
    for a, b in zip(static[1] + static[2], eager[1] + eager[2]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_multi_precision_master_weights():
    p16 = _params(2, dtype="float16")
    p32 = [paddle.to_tensor(p.numpy().astype("float32"), stop_gradient=False) for p in p16]
    o16 = paddle.optimizer.Adam(0.01, parameters=p16, multi_precision=True)
    o32 = paddle.optimizer.Adam(0.01, parameters=p32)
    for step in range(4):
        _set_grads(p16, step, "float16")
        for a, b in zip(p32, p16):
            a.grad = paddle.to_tensor(b.grad.numpy().astype("float32"))
        o16.step()
        o32.step()
    sd = o16.state_dict()
    assert set(sd["master_weights"]) == {p.name for p in p16}
    name = p16[0].name
    assert f"{name}_fp32_master_0_moment1_0" in sd
    assert sd[f"{name}_fp32_master_0_moment1_0"].dtype == paddle.float32
    for a, b in zip(p16, p32):
        assert a.dtype == paddle.float16
        master = sd["master_weights"][a.name]
        np.testing.assert_allclose(master.numpy(), b.numpy(), rtol=2e-3, atol=2e-3)
        np.testing.assert_array_equal(a.numpy(), master.numpy().astype("float16"))


def test_state_dict_file_roundtrip(tmp_path):
    src = _params(3)
    sched = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr.StepDecay(0.1, 2), 2, 0.0, 0.1)
    opt = paddle.optimizer.AdamW(sched, parameters=src)
    for step in range(3):
        _set_grads(src, step)
        opt.step()
        sched.step()
    path = str(tmp_path / "opt.pdopt")
    paddle.save(opt.state_dict(), path)
    loaded = paddle.load(path)
    assert set(loaded) == set(opt.state_dict())
    sched2 = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr.StepDecay(0.1, 2), 2, 0.0, 0.1)
    opt2 = paddle.optimizer.AdamW(sched2, parameters=src)
    # opt2's accumulators get the names opt would create next: rename like a fresh process
    opt2.set_state_dict(
        {k.rsplit("_", 1)[0] + "_1" if k != "LR_Scheduler" else k: v for k, v in loaded.items()}
    )
    assert sched2.last_epoch == sched.last_epoch and sched2() == sched()
    _set_grads(src, 5)
    opt2.step()
    for k, v in opt2.state_dict().items():
        if "beta1_pow" in k:
            np.testing.assert_allclose(v.numpy(), [0.9**5], rtol=1e-6)


def test_user_defined_regularizer_and_clip():
    class Shrink(paddle.regularizer.WeightDecayRegularizer):
        def __call__(self, param, grad, block=None):
            return param * 0.5

    class ClipHalf(paddle.nn.clip.ClipGradBase):
        def __str__(self):
            return "half"

        def _dygraph_clip(self, params_grads):
            return [(p, g * 0.5) for p, g in params_grads]

    params = _params(2)
    start = [p.numpy() for p in params]
    opt = paddle.optimizer.SGD(0.1, parameters=params, weight_decay=Shrink(), grad_clip=ClipHalf())
    _set_grads(params, 0)
    grads = [p.grad.numpy() for p in params]
    opt.step()
    for p, s, g in zip(params, start, grads):
        np.testing.assert_allclose(p.numpy(), s - np.float32(0.1) * (0.5 * g + 0.5 * s), rtol=1e-6)


def test_adamw_lr_ratio_and_tensor_betas():
    # Paddle supports lr_ratio only on GPU/XPU; here it works everywhere
    params = _params(2)
    start = [p.numpy() for p in params]
    opt = paddle.optimizer.AdamW(
        0.1, parameters=params, weight_decay=0.1, lr_ratio=lambda p: 0.5 if p is params[0] else 1.0
    )
    _set_grads(params, 0)
    grads = [p.grad.numpy() for p in params]
    opt.step()
    for i, (p, s, g) in enumerate(zip(params, start, grads)):
        lr = np.float32(0.1) * np.float32(0.5 if i == 0 else 1.0)
        s = s - lr * np.float32(0.1) * s
        one, b1, b2 = np.float32(1), np.float32(0.9), np.float32(0.999)
        m1, m2 = (one - b1) * g, (one - b2) * g * g
        lr_t = lr * np.sqrt(one - b2) / (one - b1)
        expect = s - lr_t * (m1 / (np.sqrt(m2) + np.float32(1e-8) * np.sqrt(one - b2)))
        np.testing.assert_allclose(p.numpy(), expect, rtol=1e-5)
    # beta given as a Tensor: its value is used, the pow accumulators start at 0.9 / 0.999
    params = _params(1)
    opt = paddle.optimizer.Adam(0.1, parameters=params, beta1=paddle.to_tensor([0.5]))
    _set_grads(params, 0)
    opt.step()
    pows = {k: v.numpy() for k, v in opt.state_dict().items() if "pow" in k}
    np.testing.assert_allclose(
        sorted(float(v[0]) for v in pows.values()), sorted([0.9 * 0.5, 0.999 * 0.999]), rtol=1e-6
    )


def test_found_inf_tensor_inside_fused_update():
    params = _params(2)
    opt = paddle.optimizer.Momentum(0.1, parameters=params)
    _set_grads(params, 0)
    opt.step()
    before = [p.numpy() for p in params]
    opt._set_auxiliary_var("found_inf", paddle.to_tensor(True))
    _set_grads(params, 1)
    opt.step()
    for p, b in zip(params, before):
        np.testing.assert_array_equal(p.numpy(), b)


def test_loads_real_paddle_pdopt():
    """tests/data/optimizer_adamw_steplr.pdopt was written by real Paddle 3.3.1
    (tools/make_optimizer_fixture.py): loading it continues training identically."""
    import json
    from pathlib import Path

    data = Path(__file__).parent / "data"
    record = json.loads((data / "optimizer_adamw_steplr.json").read_text())
    state = paddle.load(str(data / "optimizer_adamw_steplr.pdopt"))
    assert list(state) == record["keys"]
    params = []
    for name, value in zip(("pdopt_w", "pdopt_b"), record["params_at_save"]):
        t = paddle.to_tensor(np.asarray(value, "float32"), stop_gradient=False)
        t.name = name
        params.append(t)
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5)
    opt = paddle.optimizer.AdamW(sched, parameters=params, weight_decay=0.05)
    opt.set_state_dict(state)
    assert sched.last_epoch == 3
    for step in range(3, 5):
        rng = np.random.default_rng(50 + step)
        grads = [
            rng.standard_normal((3, 4)).astype("float32"),
            rng.standard_normal((4,)).astype("float32"),
        ]
        for p, g in zip(params, grads):
            p.grad = paddle.to_tensor(g)
        opt.step()
        sched.step()
    assert list(opt.state_dict()) == record["keys"]
    for p, expect in zip(params, record["params_final"]):
        np.testing.assert_allclose(p.numpy(), np.asarray(expect), rtol=1e-5, atol=1e-6)
    assert opt.get_lr() == record["lr_final"]
