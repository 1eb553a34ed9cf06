"""A compiled train step whose gradients are cleared to zeros (``opt.clear_grad()``, Paddle's
``set_to_zero=True``) neither takes them as inputs nor returns them: the zeros are constants
of the program and the cleared ``.grad``s are the shared zero arrays afterwards. Values equal
the eager step's, with and without gradient accumulation between clears."""

from __future__ import annotations

import numpy as np
import paddle.nn.functional as F
import pytest

import paddle

OPTIMIZERS = {
    "adam": lambda ps: paddle.optimizer.Adam(0.05, parameters=ps),
    "sgd": lambda ps: paddle.optimizer.SGD(0.05, parameters=ps),
    "momentum": lambda ps: paddle.optimizer.Momentum(0.05, parameters=ps),
}


def _setup(optimizer="adam", seed=3):
    paddle.seed(seed)
    net = paddle.nn.Sequential(paddle.nn.Linear(6, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 3))
    return net, OPTIMIZERS[optimizer](net.parameters())


def _data(n=6):
    r = np.random.default_rng(0)
    xs = r.standard_normal((n, 4, 6)).astype("float32")
    ys = r.integers(0, 3, (n, 4)).astype("int64")
    return [(paddle.to_tensor(x), paddle.to_tensor(y)) for x, y in zip(xs, ys)]


def _step(net, opt, compiled: bool):
    """The train step (``update=False``: only accumulate the gradients), maybe compiled."""

    def step(x, y, update=True):
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        if update:
            opt.step()
            opt.clear_grad()
        return loss

    return paddle.jit.to_static(step) if compiled else step


def _run(compiled: bool, accumulate: int, optimizer: str = "adam"):
    """Losses and final weights of 6 steps that clear the gradients every ``accumulate``."""
    net, opt = _setup(optimizer)
    fn = _step(net, opt, compiled)
    losses = []
    for k, (x, y) in enumerate(_data(), 1):
        losses.append(float(fn(x, y, k % accumulate == 0)))
    return losses, [p.numpy() for p in net.parameters()], fn, net


# accumulating between updates: the steps with and without opt.step are two compiled
# programs, each traced while .grad held a value the other one wrote
@pytest.mark.parametrize(
    "accumulate,optimizer", [(1, "adam"), (2, "adam"), (3, "adam"), (2, "sgd"), (3, "momentum")]
)
def test_compiled_step_equals_eager(accumulate, optimizer):
    want_losses, want_params, _, _ = _run(False, accumulate, optimizer)
    got_losses, got_params, _, net = _run(True, accumulate, optimizer)
    np.testing.assert_allclose(got_losses, want_losses, rtol=1e-5, atol=1e-6)
    for got, want in zip(got_params, want_params):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    for p in net.parameters():  # cleared (6 is a multiple of every accumulate) to zeros
        assert p.grad is not None and not p.grad.numpy().any()


def test_cleared_grads_are_no_inputs_or_outputs_of_the_program():
    from paddle_compat._core.tensor import is_shared_zeros

    _, _, fn, net = _run(True, 1)
    entry = [e for entries in fn._cache.values() for e in entries if e.compiled][-1]
    params = list(net.parameters())
    assert len(entry.zero_state) == len(params)  # one cleared gradient per parameter
    assert all(is_shared_zeros(p.grad._value) for p in params)
    m = entry.compiled.memory_analysis()
    param_bytes = sum(p._value.nbytes for p in params)
    # in: parameters, two Adam moments each (+ small scalars); out: the same, no gradients
    assert m.argument_size_in_bytes < 3 * param_bytes + 1024
    assert m.output_size_in_bytes < 3 * param_bytes + 1024


def _mixed_run(compiled: bool, compiled_first: bool):
    """SGD steps with an eager backward before every other one (accumulated into by the
    step's own backward): losses and final weights."""
    net, opt = _setup("sgd")
    fn = _step(net, opt, compiled)
    losses = []
    for k, (x, y) in enumerate(_data()):
        if (k % 2 == 0) != compiled_first:
            F.cross_entropy(net(x), y).backward()
        losses.append(float(fn(x, y)))
    return losses, [p.numpy() for p in net.parameters()]


# eager backward passes mixed with a compiled step: after a clear, the eager backward gives
# each parameter a new .grad Tensor (Paddle's semantics), which the compiled step must read
@pytest.mark.parametrize("compiled_first", [True, False])
def test_eager_backward_between_compiled_steps(compiled_first):
    want_losses, want_params = _mixed_run(False, compiled_first)
    got_losses, got_params = _mixed_run(True, compiled_first)
    np.testing.assert_allclose(got_losses, want_losses, rtol=1e-5, atol=1e-6)
    for got, want in zip(got_params, want_params):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_a_step_that_accumulates_returns_no_differentiable_call():
    # the step ran backward itself (accumulating in place): its result is not a node of the
    # eager tape, which would also keep every input buffer alive (copies instead of donation)
    _, _, fn, net = _run(True, 2)
    x, y = _data()[0]
    loss = fn(x, y, False)  # accumulates into the existing .grad
    assert loss._node is None
    loss = fn(x, y, True)
    assert loss._node is None
