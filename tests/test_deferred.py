"""Deferred eager execution (``FLAGS_deferred_eager`` / ``PADDLE_COMPAT_DEFERRED=1``): ops
record into a segment that runs as one compiled program when a value is read. Each case runs
a small program in both modes and compares; the rest checks the mechanism (what flushes, what
compiles, where errors point)."""

from __future__ import annotations

import threading

import jax
import numpy as np
import paddle.nn.functional as F
import pytest
from golden_compare import DEFERRED_TOL

import paddle
from paddle_compat._core import deferred


@pytest.fixture(autouse=True)
def _short_segments_compile(monkeypatch):
    """These tests check segment programs: compile even short segments the first time."""
    monkeypatch.setattr(deferred, "SHORT_OPS", 0)


def _rng(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype("float32")


def _chain():
    x = paddle.to_tensor(_rng(3, 4))
    y = paddle.tanh(x * 2.0 + 1.0).sum(axis=1) / 3
    return [y]


def _matmul_softmax():
    a, b = paddle.to_tensor(_rng(4, 5)), paddle.to_tensor(_rng(5, 6, seed=1))
    return [F.softmax(a @ b, axis=-1), paddle.argmax(a @ b, axis=1)]


def _inplace_and_setitem():
    x = paddle.to_tensor(_rng(4, 3))
    x.add_(paddle.ones([4, 3]))
    x[1:3, 0] = 5.0
    x.scale_(2.0)
    return [x, x[::2]]


def _backward():
    w = paddle.to_tensor(_rng(3, 3), stop_gradient=False)
    x = paddle.to_tensor(_rng(2, 3, seed=1))
    h = F.gelu(x @ w)
    h.retain_grads()
    seen = []
    h.register_hook(lambda g: seen.append(g.sum()) or g * 2)
    (h * h).mean().backward()
    return [w.grad, h.grad, seen[0]]


def _grad_and_double_grad():
    x = paddle.to_tensor(_rng(5), stop_gradient=False)
    y = (x**3).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    (gg,) = paddle.grad(g.sum(), x)
    return [g, gg]


def _accumulate_twice():
    w = paddle.to_tensor(_rng(4), stop_gradient=False)
    for _ in range(2):
        (w * w).sum().backward()
    g1 = w.grad * 1
    w.clear_grad()
    (w.exp()).sum().backward()
    return [g1, w.grad]


def _layer_train_steps():
    # no bias before the batch norm: its gradient is zero up to rounding (the norm takes each
    # channel's mean out), and Adam's step, normalized by that gradient's size, would turn the
    # rounding of whichever program computed it into steps of the learning rate's size
    paddle.seed(3)
    model = paddle.nn.Sequential(
        paddle.nn.Linear(6, 8, bias_attr=False),
        paddle.nn.BatchNorm1D(8),
        paddle.nn.ReLU(),
        paddle.nn.Linear(8, 2),
    )
    opt = paddle.optimizer.Adam(0.01, parameters=model.parameters())
    x, y = paddle.to_tensor(_rng(5, 6)), paddle.to_tensor(np.array([0, 1, 1, 0, 1]))
    losses = []
    for _ in range(3):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(loss)
    return [*losses, *model.parameters(), *model.buffers()]


def _to_static_inside():
    lin = paddle.nn.Linear(3, 2)
    lin.weight.set_value(_rng(3, 2))
    f = paddle.jit.to_static(lambda t: lin(t).sum(axis=0))
    x = paddle.to_tensor(_rng(4, 3)) * 2
    return [f(x), f(x + 1)]


def _dropout_seeded():
    paddle.seed(11)
    x = paddle.to_tensor(_rng(6, 6))
    return [F.dropout(x * 1.5, p=0.4), paddle.rand([3])]


def _mel_scale_nan():  # XLA turns ``x * float(mask)`` into a select, dropping log's NaN
    hz = paddle.to_tensor(np.array([-3.0, 0.0, 999.0, 1001.0, 5000.0], "float32"))
    mel = paddle.to_tensor(np.array([-np.inf, 1.0, 20.0, np.inf], "float32"))
    return [paddle.audio.functional.hz_to_mel(hz), paddle.audio.functional.mel_to_hz(mel)]


CASES = {
    "chain": _chain,
    "mel_scale_nan": _mel_scale_nan,
    "matmul_softmax": _matmul_softmax,
    "inplace_and_setitem": _inplace_and_setitem,
    "backward_hooks_retain_grads": _backward,
    "grad_and_double_grad": _grad_and_double_grad,
    "grad_accumulation": _accumulate_twice,
    "layer_train_steps": _layer_train_steps,
    "to_static_inside": _to_static_inside,
    "dropout_seeded": _dropout_seeded,
}


@pytest.mark.parametrize("name", list(CASES))
def test_deferred_equals_op_by_op(name):
    with deferred.mode(False):
        want = [t.numpy() for t in CASES[name]()]
    with deferred.mode(True):
        got = CASES[name]()
        got_np = [t.numpy() for t in got]
    assert [t.dtype for t in got_np] == [t.dtype for t in want]
    for g, w in zip(got_np, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=DEFERRED_TOL[0], atol=DEFERRED_TOL[1])


def test_ops_wait_until_a_value_is_read():
    with deferred.mode(True):
        x = paddle.to_tensor(_rng(2, 3))
        y = (x + 1).exp().sum(axis=0)
        assert deferred.pending_ops() == 3
        assert y.shape == [3] and y.dtype == paddle.float32 and y.ndim == 1  # no flush
        assert deferred.pending_ops() == 3
        y.numpy()
        assert deferred.pending_ops() == 0


def test_a_repeated_forward_compiles_one_program_once():
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 4), paddle.nn.Tanh(), paddle.nn.Linear(4, 1))
    x = paddle.to_tensor(_rng(2, 4))
    with deferred.mode(True), paddle.no_grad():
        model(x)
        assert deferred.pending_ops() == 0  # the outermost Layer call flushes
        n = deferred.programs_compiled()
        outs = [model(x).numpy() for _ in range(3)]
        assert deferred.programs_compiled() == n
    np.testing.assert_array_equal(outs[0], outs[2])


def test_only_values_still_held_leave_the_program():
    with deferred.mode(True):
        x = paddle.to_tensor(_rng(3))
        y = paddle.exp(paddle.sin(x) * 2)  # sin and the product die inside the program
        node = deferred._current.node
        y.numpy()
    assert {live for live, _ in node.programs} == {(2,)}


def test_shape_error_raises_at_the_op():
    with deferred.mode(True):
        a, b = paddle.to_tensor(_rng(2, 3)), paddle.to_tensor(_rng(4, 5))
        with pytest.raises(ValueError, match=r"matmul.*shape=\[2, 3\].*shape=\[4, 5\]"):
            paddle.matmul(a, b)
        assert deferred.pending_ops() == 0


def test_a_short_segment_of_stored_kernels_runs_kernel_by_kernel_until_it_repeats(monkeypatch):
    from paddle_compat._core import segment_store

    if segment_store.directory() is None:
        pytest.skip("the segment store is off")
    monkeypatch.setattr(deferred, "SHORT_OPS", 3)
    # a shape of this test's own: its kernels compile (and are stored) here, not found in
    # JAX's memory from another test (a kernel compiled there is not stored)
    x = paddle.to_tensor(_rng(2, 9, 1))
    with deferred.mode(False):  # (also under PADDLE_COMPAT_DEFERRED=1)
        for k in range(3):
            paddle.exp(x * (k + 1)).numpy()  # op by op: each kernel's program is stored
    with deferred.mode(True):
        n = deferred.programs_compiled()
        for k in range(3):
            y = paddle.exp(x * (k + 1))  # two ops: one program from the second time on
            np.testing.assert_allclose(y.numpy(), np.exp(_rng(2, 9, 1) * (k + 1)), rtol=1e-6)
            assert deferred.programs_compiled() == n + min(k, 1)
        paddle.sin(paddle.cos(paddle.exp(x))).numpy()  # three ops: a program at once
        assert deferred.programs_compiled() == n + 2
        odd = paddle.to_tensor(_rng(3, 7, 2))  # a shape no kernel was stored for: the short
        paddle.exp(odd).numpy()  # segment would compile its kernel anyway, so compiles itself
        assert deferred.programs_compiled() == n + 3


def test_a_segment_at_max_ops_runs_kernel_by_kernel(monkeypatch):
    monkeypatch.setattr(deferred, "MAX_OPS", 5)
    with deferred.mode(True):
        x = paddle.to_tensor(_rng(3))
        n = deferred.programs_compiled()
        for _ in range(7):
            x = x + 1
        assert deferred.pending_ops() == 2
        assert deferred.programs_compiled() == n  # the cut segment compiled no program
        np.testing.assert_allclose(x.numpy(), _rng(3) + 7, rtol=1e-6)


def test_past_max_programs_the_trie_starts_afresh(monkeypatch):
    monkeypatch.setattr(deferred, "MAX_PROGRAMS", 2)
    monkeypatch.setattr(deferred, "_programs_held", 0)
    x = paddle.to_tensor(_rng(3))
    with deferred.mode(True):
        root = deferred._ROOT
        outs = [paddle.sin(x).numpy(), paddle.cos(x).numpy()]  # two structures, two programs
        assert deferred._ROOT is root
        outs.append(paddle.exp(x).numpy())  # a third program: the trie is dropped
        assert deferred._ROOT is not root and not deferred._AVALS
        n = deferred.programs_compiled()
        outs.append(paddle.exp(x).numpy())  # recorded again from the fresh root
        assert deferred.programs_compiled() == n + 1
    want = [np.sin(_rng(3)), np.cos(_rng(3)), np.exp(_rng(3)), np.exp(_rng(3))]
    for got, w in zip(outs, want):
        np.testing.assert_allclose(got, w, rtol=1e-6)


def test_a_layer_called_on_another_thread_is_that_threads_outermost_call():
    inner = paddle.nn.Tanh()
    seen = []

    class Outer(paddle.nn.Layer):
        def forward(self, x):
            y = x * 2

            def other():
                inner(paddle.to_tensor(_rng(2)))
                seen.append(deferred.pending_ops())  # its own outermost call flushed

            t = threading.Thread(target=other)
            t.start()
            t.join()
            return y + 1

    with deferred.mode(True):
        out = Outer()(paddle.to_tensor(_rng(2)))
        assert seen == [0] and deferred.pending_ops() == 0
    np.testing.assert_allclose(out.numpy(), _rng(2) * 2 + 1, rtol=1e-6)


def test_flag_switches_mode():
    prev = paddle.get_flags("FLAGS_deferred_eager")["FLAGS_deferred_eager"]
    try:
        paddle.set_flags({"FLAGS_deferred_eager": True})
        assert deferred.enabled()
        y = paddle.ones([2]) * 3
        paddle.set_flags({"FLAGS_deferred_eager": False})  # switching off flushes
        assert deferred.pending_ops() == 0 and y.tolist() == [3.0, 3.0]
    finally:
        paddle.set_flags({"FLAGS_deferred_eager": prev})


def test_a_value_read_on_another_thread():
    with deferred.mode(True):
        y = paddle.to_tensor(_rng(4)) * 2
        box = []
        t = threading.Thread(target=lambda: box.append(y.numpy()))
        t.start()
        t.join()
    np.testing.assert_array_equal(box[0], _rng(4) * 2)


def test_recording_stops_under_a_jax_trace():
    with deferred.mode(True):
        t = paddle.to_tensor(_rng(3))

        @jax.jit
        def f(a):
            return (paddle.Tensor(a) * t)._value

        np.testing.assert_allclose(np.asarray(f(jax.numpy.ones(3))), _rng(3), rtol=1e-6)
        assert deferred.pending_ops() == 0


def _failing(exc):
    def compile_(node, key, inputs):
        def run(*args):
            raise exc

        return run

    return compile_


def test_a_failed_flush_raises_for_every_value_of_its_segment(monkeypatch):
    monkeypatch.setattr(deferred, "_compile", _failing(RuntimeError("XLA failed")))
    with deferred.mode(True):
        x = paddle.to_tensor(_rng(3))
        a, b = x * 2, x + 1
        with pytest.raises(RuntimeError, match="XLA failed"):
            a.numpy()
        c = paddle.full([3], 100.0)
        with pytest.raises(RuntimeError, match="XLA failed"):
            c + b  # an input from the failed segment: nothing is recorded
        monkeypatch.undo()
        assert (x * 3).numpy().tolist() == (_rng(3) * 3).tolist()  # a new segment works
        assert (paddle.full([3], 7.0) + 1).tolist() == [8.0, 8.0, 8.0]


def test_a_failed_forward_leaves_the_buffers_and_a_retry_works(monkeypatch):
    paddle.seed(0)
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 4), paddle.nn.BatchNorm1D(4))
    x = paddle.to_tensor(_rng(8, 4))
    mean = model[1]._mean.numpy()
    with deferred.mode(True):
        monkeypatch.setattr(deferred, "_compile", _failing(RuntimeError("RESOURCE_EXHAUSTED")))
        with pytest.raises(MemoryError, match="ResourceExhausted"):  # XLA's OOM, as Paddle's
            model(x)  # the outermost Layer call flushes
        monkeypatch.undo()
        np.testing.assert_array_equal(model[1]._mean.numpy(), mean)  # as eager: not updated
        assert np.isfinite(model(x[:4]).numpy()).all()


def test_an_interrupted_flush_runs_again_on_the_next_read(monkeypatch):
    with deferred.mode(True):
        x = paddle.to_tensor(_rng(3))
        a, b = x * 2, x + 1
        monkeypatch.setattr(deferred, "_compile", _failing(KeyboardInterrupt()))
        with pytest.raises(KeyboardInterrupt):
            a.numpy()
        monkeypatch.undo()
        np.testing.assert_array_equal(b.numpy(), _rng(3) + 1)
        np.testing.assert_array_equal(a.numpy(), _rng(3) * 2)


def test_a_pending_primal_in_double_grad_after_switching_off():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    c = paddle.ones([3])
    with deferred.mode(True):
        y = ((x * (c * 2.0)) ** 3).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), [24.0, 96.0, 216.0])


def test_arrays_placed_on_a_device_run_at_once():
    x = paddle.to_tensor(_rng(3))
    placed = paddle.Tensor(jax.device_put(x._value, jax.devices()[0]))
    with deferred.mode(True):
        y = placed * 2  # committed to a device: never mixed into a program
        assert deferred.pending_ops() == 0 and y._val.committed


def test_a_layer_may_define_its_own_call_helpers():
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(2, 2)

        def _call(self, x):
            return x * 100

        def forward(self, x):
            return self.fc(x)

    net, x = Net(), paddle.ones([1, 2])
    for on in (False, True):
        with deferred.mode(on):
            np.testing.assert_allclose(net(x).numpy(), net.fc(x).numpy(), rtol=1e-6)


def test_an_allocation_too_large_raises_paddles_memory_error_at_the_op():
    with deferred.mode(True):  # an op past BIG_OP_BYTES runs at once, as op by op
        with pytest.raises(MemoryError, match="4000000000000 bytes"):
            paddle.full([10**6, 10**6], 1.0)
        assert deferred.pending_ops() == 0


def test_a_segment_out_of_memory_keeps_raising_paddles_memory_error(monkeypatch):
    monkeypatch.setattr(deferred, "BIG_OP_BYTES", float("inf"))  # every op is recorded
    monkeypatch.setattr(deferred, "_AVALS", {})
    with deferred.mode(True):
        x = paddle.full([10**6, 10**6], 1.0)  # recorded: nothing is allocated yet
        for _ in range(2):  # the failed segment's values keep raising the same error
            with pytest.raises(MemoryError, match="4000000000000 bytes"):
                x.sum().numpy()


def _checked_layer_lines(capsys):
    """What ``check_layer_numerics`` prints for a forward and backward through sqrt(|x|)."""
    from paddle.amp import debugging as D

    class Net(paddle.nn.Layer):
        @D.check_layer_numerics
        def forward(self, x):
            return paddle.sqrt(paddle.abs(x))

    D.enable_tensor_checker(D.TensorCheckerConfig(True, debug_mode=D.DebugMode.CHECK_ALL))
    capsys.readouterr()
    try:
        Net()(paddle.to_tensor([[0.0, 4.0], [9.0, 16.0]])).sum().backward()
    finally:
        D.disable_tensor_checker()
    return capsys.readouterr().out.splitlines()


def test_the_tensor_checker_sees_recorded_gradient_kernels(capsys):
    with deferred.mode(False):
        want = _checked_layer_lines(capsys)
    with deferred.mode(True):
        got = _checked_layer_lines(capsys)
    assert any("op=sqrt_grad" in line for line in want) and got == want


def test_the_profiler_runs_ops_one_by_one_while_it_records():
    x = paddle.to_tensor(_rng(4, 4))
    with deferred.mode(True):
        with paddle.profiler.Profiler(on_trace_ready=lambda _: None) as p:
            y = paddle.matmul(x, x)
            assert deferred.pending_ops() == 0  # ran at once: the trace names its kernel
        assert deferred.enabled() and not deferred._paused
        z = y + 1
        assert deferred.pending_ops() == 1  # recording again once the range stops
        z.numpy()
    ops = _printed_summary(p).split("Operator Summary")[1]
    assert "matmul" in ops


def _printed_summary(p):
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        p.summary()
    return buf.getvalue()
