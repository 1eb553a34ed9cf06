"""paddle.optimizer.Optax: an optax transform as a Paddle optimizer equals the same transform
run by hand on the arrays, eagerly and under to_static; its state saves and loads."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

import paddle

TRANSFORMS = {
    "sgd": lambda: optax.sgd(0.1, momentum=0.9),
    "adam": lambda: optax.adam(0.05),
    "lion": lambda: optax.lion(0.01),
    "adamw_injected": lambda: optax.inject_hyperparams(optax.adamw)(learning_rate=0.05),
    "chain_clip": lambda: optax.chain(optax.clip_by_global_norm(0.5), optax.sgd(0.2)),
}
X = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")


def _layer():
    paddle.seed(0)
    return paddle.nn.Linear(3, 2)


def _reference(make, w0, steps):
    tx = make()
    params = [jnp.asarray(a) for a in w0]
    state = tx.init(params)
    x = jnp.asarray(X)
    for _ in range(steps):
        g = jax.grad(lambda ps: jnp.mean((x @ ps[0] + ps[1]) ** 2))(params)
        updates, state = tx.update(g, state, params)
        params = optax.apply_updates(params, updates)
    return [np.asarray(p) for p in params]


def _train(lin, opt, steps, compiled=False):
    def step(x):
        loss = lin(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    if compiled:
        step = paddle.jit.to_static(step)
    for _ in range(steps):
        step(paddle.to_tensor(X))


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "to_static"])
@pytest.mark.parametrize("name", list(TRANSFORMS))
def test_matches_optax_by_hand(name, compiled):
    lin = _layer()
    w0 = [p.numpy() for p in lin.parameters()]
    opt = paddle.optimizer.Optax(TRANSFORMS[name](), parameters=lin.parameters())
    _train(lin, opt, 3, compiled)
    for got, want in zip(lin.parameters(), _reference(TRANSFORMS[name], w0, 3)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-7)


def test_state_dict_roundtrip_and_lr():
    lin = _layer()
    opt = paddle.optimizer.Optax(TRANSFORMS["adamw_injected"](), parameters=lin.parameters())
    _train(lin, opt, 2)
    saved = {k: v.numpy() for k, v in opt.state_dict().items()}
    assert opt.get_lr() == pytest.approx(0.05)
    opt.set_lr(0.01)
    assert opt.get_lr() == pytest.approx(0.01)
    lin2 = _layer()
    lin2.set_state_dict(lin.state_dict())
    opt2 = paddle.optimizer.Optax(TRANSFORMS["adamw_injected"](), parameters=lin2.parameters())
    opt2.set_state_dict(saved)  # before the first step: applied when the state is created
    opt.set_lr(0.05)
    _train(lin, opt, 1)
    _train(lin2, opt2, 1)
    np.testing.assert_allclose(lin2.weight.numpy(), lin.weight.numpy(), rtol=1e-6)
    with pytest.raises(RuntimeError, match="inject_hyperparams"):
        paddle.optimizer.Optax(optax.adam(0.1), parameters=lin.parameters()).get_lr()


def test_parameter_without_gradient_is_unchanged_and_errors():
    a = paddle.create_parameter([2], "float32")
    b = paddle.create_parameter([2], "float32")
    opt = paddle.optimizer.Optax(optax.sgd(0.5), parameters=[a, b])
    a0, b0 = a.numpy().copy(), b.numpy().copy()
    (a * 3.0).sum().backward()
    opt.step()
    np.testing.assert_array_equal(b.numpy(), b0)
    np.testing.assert_allclose(a.numpy(), a0 - 0.5 * 3.0, rtol=1e-6)
    with pytest.raises(TypeError, match="optax.GradientTransformation"):
        paddle.optimizer.Optax("adam", parameters=[a])
    with pytest.raises(TypeError, match="not parameter groups"):
        paddle.optimizer.Optax(optax.sgd(0.1), parameters=[{"params": [a]}])


def test_grad_scaler_skips_the_step_on_inf():
    lin = _layer()
    opt = paddle.optimizer.Optax(optax.sgd(0.1), parameters=lin.parameters())
    with paddle.amp.auto_cast():
        pass
    scaler = paddle.amp.GradScaler(init_loss_scaling=8.0)
    before = lin.weight.numpy().copy()
    x = paddle.to_tensor(X) / paddle.zeros([4, 3])
    scaler.scale(lin(x).mean()).backward()
    scaler.step(opt)
    scaler.update()
    np.testing.assert_array_equal(lin.weight.numpy(), before)
