"""A training step of a 6-layer Transformer encoder (batch 8, seq 128, d_model 256, 4 heads,
feed-forward 1024, post-norm, dropout 0: forward, backward, SGD update): paddle-compat eager and
to_static, real Paddle eager on CPU (same run, side venv), and a hand-written JAX twin
(``jax.nn.dot_product_attention``, ``jax.jit`` of ``jax.value_and_grad`` and the update). The
update keeps the gradients live: a compiled step whose gradients go unused would let XLA drop
the backward.

    .venv/bin/python benchmarks/bench_attention.py

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

BATCH, SEQ, D, HEADS, FF, LAYERS = 8, 128, 256, 4, 1024, 6


def _data():
    return np.random.default_rng(0).standard_normal((BATCH, SEQ, D)).astype("float32")


def _model(paddle):
    paddle.seed(0)
    layer = paddle.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0)
    return paddle.nn.TransformerEncoder(layer, LAYERS)


def _paddle_step(paddle, model, x):
    opt = paddle.optimizer.SGD(1e-3, parameters=model.parameters())

    def step():
        loss = (model(x) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def _time_step(fn) -> tuple[float, float, float]:
    return first_and_steady_ms(fn, n=2, repeats=3, warmup=1)


def _run_paddle(paddle) -> dict:
    model = _model(paddle)
    x = paddle.to_tensor(_data())
    first, steady, cpu = _time_step(_paddle_step(paddle, model, x))
    return {"eager_first_ms": first, "eager_ms": steady, "eager_cpu_ms": cpu}


def _jax_twin(against=None) -> dict:
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)

    def dense(i, o):
        b = np.sqrt(6 / (i + o))
        return [jnp.asarray(rng.uniform(-b, b, (i, o)), jnp.float32), jnp.zeros(o, jnp.float32)]

    params = [
        {
            "qkvo": [dense(D, D) for _ in range(4)],
            "ff": [dense(D, FF), dense(FF, D)],
            "ln": [[jnp.ones(D, jnp.float32), jnp.zeros(D, jnp.float32)] for _ in range(2)],
        }
        for _ in range(LAYERS)
    ]

    def ln(x, wb):  # float32 throughout: paddle_compat turns on jax_enable_x64
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / jnp.sqrt(v + 1e-5) * wb[0] + wb[1]

    def layer(x, p):
        (wq, bq), (wk, bk), (wv, bv), (wo, bo) = p["qkvo"]
        heads = lambda t: t.reshape(BATCH, SEQ, HEADS, D // HEADS)  # noqa: E731
        a = jax.nn.dot_product_attention(heads(x @ wq + bq), heads(x @ wk + bk), heads(x @ wv + bv))
        x = ln(x + a.reshape(BATCH, SEQ, D) @ wo + bo, p["ln"][0])
        (w1, b1), (w2, b2) = p["ff"]
        return ln(x + jax.nn.relu(x @ w1 + b1) @ w2 + b2, p["ln"][1])

    def loss(params, x):
        for p in params:
            x = layer(x, p)
        return jnp.mean(x**2)

    return time_jax_sgd(
        loss, params, jnp.asarray(_data()), against=against, n=2, repeats=3, warmup=1
    )


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _run_paddle(paddle)
    model = _model(paddle)
    x = paddle.to_tensor(_data())
    static = paddle.jit.to_static(_paddle_step(paddle, model, x))
    ours.update(time_static_step(static, n=2, repeats=3, warmup=1))
    twin = _jax_twin(against=static)
    ref = paddle_side(__file__)
    title = (
        f"{LAYERS}-layer TransformerEncoder train step (fwd+bwd+SGD), batch {BATCH}, seq {SEQ}, "
        f"d_model {D}, {HEADS} heads, ff {FF}"
    )
    report_train_step(title, ours, ref, twin, "JAX twin (jit)")


if __name__ == "__main__":
    main()
