"""A training step of a 2-layer LSTM (batch 16, 32 steps, 64 -> 128: forward, backward, SGD
update): paddle-compat eager and to_static, real Paddle eager on CPU (same run, side venv), and
a hand-written JAX twin (``jax.lax.scan`` per layer, ``jax.jit`` of ``jax.value_and_grad`` and
the update). The update keeps the gradients live: a compiled step whose gradients are cleared
unused would let XLA drop the backward.

    .venv/bin/python benchmarks/bench_rnn.py

Prints milliseconds per step, the ratios against Paddle and the JAX twin, the first-call
(compile) times, the to_static / twin ratio of alternating rounds and the memory of the two
compiled steps (``_timing.static_step_memory``); the last line is the JSON of the numbers.
"""

from __future__ import annotations

import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import (  # noqa: E402
    first_and_steady_ms,
    paddle_side,
    report_train_step,
    run_inner_paddle,
    time_jax_sgd,
    time_static_step,
)

BATCH, STEPS, IN, HIDDEN, LAYERS = 16, 32, 64, 128, 2


def _data():
    return np.random.default_rng(0).standard_normal((BATCH, STEPS, IN)).astype("float32")


def _paddle_step(paddle, model, x):
    opt = paddle.optimizer.SGD(1e-3, parameters=model.parameters())

    def step():
        out, (h, c) = model(x)
        loss = (out * out).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def _run_paddle(paddle) -> dict:
    paddle.seed(0)
    model = paddle.nn.LSTM(IN, HIDDEN, num_layers=LAYERS)
    x = paddle.to_tensor(_data())
    first, steady, cpu = first_and_steady_ms(_paddle_step(paddle, model, x))
    return {"eager_first_ms": first, "eager_ms": steady, "eager_cpu_ms": cpu}


def _jax_twin(against=None) -> dict:
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    bound = 1 / np.sqrt(HIDDEN)
    params = []
    for layer in range(LAYERS):
        size = IN if layer == 0 else HIDDEN
        shapes = [(4 * HIDDEN, size), (4 * HIDDEN, HIDDEN), (4 * HIDDEN,), (4 * HIDDEN,)]
        params.append([jnp.asarray(rng.uniform(-bound, bound, s), jnp.float32) for s in shapes])

    def lstm_layer(x, w):  # x: [T, B, I]
        w_ih, w_hh, b_ih, b_hh = w
        xw = jnp.einsum("tbi,gi->tbg", x, w_ih) + b_ih

        def body(carry, xt):
            h, c = carry
            i, f, g, o = jnp.split(xt + h @ w_hh.T + b_hh, 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h

        zeros = jnp.zeros((x.shape[1], HIDDEN), x.dtype)
        _, out = jax.lax.scan(body, (zeros, zeros), xw)
        return out

    def loss(params, x):
        h = jnp.swapaxes(x, 0, 1)
        for w in params:
            h = lstm_layer(h, w)
        return jnp.mean(jnp.swapaxes(h, 0, 1) ** 2)

    return time_jax_sgd(loss, params, jnp.asarray(_data()), against=against)


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _run_paddle(paddle)
    paddle.seed(0)
    model = paddle.nn.LSTM(IN, HIDDEN, num_layers=LAYERS)
    x = paddle.to_tensor(_data())
    static = paddle.jit.to_static(_paddle_step(paddle, model, x))
    ours.update(time_static_step(static))
    twin = _jax_twin(against=static)
    ref = paddle_side(__file__)
    title = f"2-layer LSTM train step (fwd+bwd+SGD), batch {BATCH}, {STEPS} steps, {IN} -> {HIDDEN}"
    report_train_step(title, ours, ref, twin, "JAX twin (lax.scan, jit)")


if __name__ == "__main__":
    main()
