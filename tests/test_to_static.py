"""paddle.jit.to_static mechanics: compiled results equal eager, state write-back, retrace,
RNG threading, outer autograd, control-flow fallback and errors."""

from __future__ import annotations

import warnings

import jax.numpy as jnp
import numpy as np
import pytest

import paddle
from paddle_compat._core.tensor import Parameter


def _params(seed=0):
    rs = np.random.RandomState(seed)
    return (
        Parameter(jnp.asarray(rs.randn(4, 3).astype("float32"))),
        Parameter(jnp.zeros(3, "float32")),
    )


def _data(seed=1):
    rs = np.random.RandomState(seed)
    return (
        paddle.to_tensor(rs.randn(8, 4).astype("float32")),
        paddle.to_tensor(rs.randn(8, 3).astype("float32")),
    )


def _make_step(W, b):
    def step(x, y):
        loss = ((paddle.matmul(x, W) + b - y) ** 2).mean()
        loss.backward()
        with paddle.no_grad():
            for p in (W, b):
                p.set_value(p - 0.1 * p.grad)
                p.clear_gradient(set_to_zero=False)
        return loss

    return step


def test_train_step_compiled_equals_eager():
    x, y = _data()
    W, b = _params()
    eager = [float(_make_step(W, b)(x, y)) for _ in range(5)]
    W, b = _params()
    step = paddle.jit.to_static(_make_step(W, b))
    compiled = [float(step(x, y)) for _ in range(5)]
    np.testing.assert_allclose(compiled, eager, rtol=1e-6)
    assert W.grad is None  # clear_gradient(False) inside the step was written back


def test_compiled_step_is_cached():
    x, y = _data()
    W, b = _params()
    step = paddle.jit.to_static(_make_step(W, b))
    for _ in range(4):
        step(x, y)
    (entries,) = step._cache.values()
    assert len(entries) == 1 and not entries[0].stale and not entries[0].eager


def test_retrace_on_new_shape():
    W, _ = _params()
    f = paddle.jit.to_static(lambda x: paddle.matmul(x, W))
    assert f(paddle.ones([2, 4])).shape == [2, 3]
    assert f(paddle.ones([5, 4])).shape == [5, 3]
    assert f(paddle.ones([5, 4])).shape == [5, 3]
    assert len(f._cache) == 2


def test_outer_backward_through_compiled_function():
    W, _ = _params()
    f = paddle.jit.to_static(lambda x: paddle.tanh(paddle.matmul(x, W)).sum())
    x = paddle.ones([2, 4])
    for _ in range(3):
        f(x).backward()
    compiled_grad = W.grad.numpy().copy()
    W.clear_gradient(False)
    paddle.tanh(paddle.matmul(x, W)).sum().backward()
    np.testing.assert_allclose(compiled_grad, 3 * W.grad.numpy(), rtol=1e-5)


def test_rng_threads_through_compiled_function():
    f = paddle.jit.to_static(lambda x: x + paddle.rand([3]))
    paddle.seed(7)
    a = [f(paddle.zeros([3])).numpy() for _ in range(4)]
    paddle.seed(7)
    b = [f(paddle.zeros([3])).numpy() for _ in range(4)]
    np.testing.assert_array_equal(np.stack(a), np.stack(b))
    assert not np.allclose(a[1], a[2])  # differs call to call


def _branchy(x):
    if float(x.sum().numpy()) > 0:  # a host read: cannot be compiled (control flow on
        return x * 2  # Tensors is converted: tests/test_dy2static.py)
    return x


def test_control_flow_falls_back_to_eager_with_warning():
    f = paddle.jit.to_static(_branchy)
    f(paddle.ones([2]))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = f(paddle.ones([2]))
    assert out.numpy().tolist() == [2.0, 2.0]
    assert f(-paddle.ones([2])).numpy().tolist() == [-1.0, -1.0]
    assert any("if float(x.sum().numpy()) > 0" in str(m.message) for m in w)


def test_control_flow_full_graph_raises_with_line():
    f = paddle.jit.to_static(_branchy, full_graph=True)
    f(paddle.ones([2]))
    with pytest.raises(RuntimeError, match=r"if float\(x.sum\(\).numpy\(\)\) > 0"):
        f(paddle.ones([2]))


def test_static_python_args_are_part_of_the_key():
    f = paddle.jit.to_static(lambda x, k: x * k)
    assert f(paddle.ones([2]), 2).numpy().tolist() == [2.0, 2.0]
    assert f(paddle.ones([2]), 2).numpy().tolist() == [2.0, 2.0]
    assert f(paddle.ones([2]), 3).numpy().tolist() == [3.0, 3.0]


def test_enable_to_static_false_runs_eagerly():
    calls = []

    def fn(x):
        calls.append(1)
        return x + 1

    f = paddle.jit.to_static(fn)
    paddle.jit.enable_to_static(False)
    try:
        for _ in range(3):
            f(paddle.ones([1]))
    finally:
        paddle.jit.enable_to_static(True)
    assert len(calls) == 3


def test_donation_keeps_aliases_and_eager_graphs_valid():
    W, b = _params()
    x, y = _data()
    step = paddle.jit.to_static(_make_step(W, b))
    step(x, y)
    step(x, y)  # compiled from here on, W and b donated
    alias = W.detach()  # shares W's buffer
    eager_loss = ((paddle.matmul(x, W) + b - y) ** 2).mean()  # an eager graph holding W
    before = alias.numpy().copy()
    step(x, y)
    np.testing.assert_array_equal(alias.numpy(), before)
    eager_loss.backward()
    assert W.grad is not None and np.isfinite(W.grad.numpy()).all()


def test_function_creating_no_tensors():
    f = paddle.jit.to_static(lambda x: x)
    x = paddle.ones([2])
    assert f(x) is x and f(x) is not None


def test_new_shape_compiles_without_another_eager_run():
    calls = []
    W, b = _params()

    def step(x, y):
        calls.append(1)  # Python runs on eager calls and traces only
        return _make_step(W, b)(x, y)

    f = paddle.jit.to_static(step)
    x, y = _data()
    f(x, y), f(x, y), f(x, y)  # eager discovery; one trace (compiled from its jaxpr); cached
    assert len(calls) == 2
    f(x[:3], y[:3])  # new shape: one trace, no eager run first
    f(x[:3], y[:3])
    assert len(calls) == 3


def test_new_static_argument_discovers_its_own_state():
    """A call whose static argument takes another path (here: the optimizer step that creates
    Adam's moments) is discovered eagerly, not traced with the state of the other path."""

    def run(compiled):
        paddle.seed(5)
        lin = paddle.nn.Linear(3, 2)
        opt = paddle.optimizer.Adam(parameters=lin.parameters())

        def step(x, update):
            loss = lin(x).mean()
            loss.backward()
            if update:
                opt.step()
                opt.clear_grad()
            return loss

        if compiled:
            step = paddle.jit.to_static(step)
        x = paddle.ones([4, 3])
        return [float(step(x, u)) for u in (False, True, False, True, True)]

    assert run(True) == pytest.approx(run(False), rel=1e-6)


def test_backward_reuses_the_forwards_residuals():
    # traced ops record JAX's pullback from their forward: the compiled LSTM step holds one
    # scan forward and one backward (the VJP used to run the forward scan a second time)
    import re

    paddle.seed(0)
    lstm = paddle.nn.LSTM(4, 8)
    opt = paddle.optimizer.SGD(parameters=lstm.parameters())
    x = paddle.rand([2, 5, 4])

    @paddle.jit.to_static
    def step(x):
        loss = lstm(x)[0].mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    losses = [float(step(x)) for _ in range(3)]
    entry = [e for es in step._cache.values() for e in es if e.compiled][-1]
    text = entry.compiled.as_text()  # the optimized HLO of the compiled step
    assert len(re.findall(r" while\(", text)) == 2
    assert losses[0] > losses[1] > losses[2]
