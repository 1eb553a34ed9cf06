"""Converted control flow: an RNN with a data-dependent early exit (a ``GRUCell`` run until the
state settles, at most ``MAX_STEPS`` steps; batch 16, hidden 64) as one forward under
``paddle.no_grad``, and as a training step (forward, ``(h * h).sum().backward()``,
``clear_gradients``): paddle-compat eager vs ``to_static`` (the ``while`` on a Tensor becomes
one ``lax.while_loop``, differentiated by ``dy2static/while_grad.py``'s checkpointed
recomputation), real Paddle eager and ``to_static`` on CPU (same run, side venv), and a
hand-written JAX twin (forward: ``jax.lax.while_loop`` under ``jax.jit``; gradient: a
``lax.scan`` over ``MAX_STEPS`` with a done mask, the usual way to differentiate such a loop
in JAX).

    .venv/bin/python benchmarks/bench_dy2static.py

Prints milliseconds per forward and the ratios; the last line is the JSON of the numbers.
"""

from __future__ import annotations

import sys
import time

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import first_and_steady_ms, paddle_side, print_ms_rows, run_inner_paddle  # noqa: E402

BATCH, HIDDEN, MAX_STEPS, TOL = 16, 64, 60, 1e-4


def _model(paddle):
    class EarlyExitRNN(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.cell = paddle.nn.GRUCell(HIDDEN, HIDDEN)

        def forward(self, x):
            h = paddle.zeros([x.shape[0], HIDDEN])
            step = paddle.to_tensor(0)
            while step < MAX_STEPS:
                new_h, _ = self.cell(x, h)
                delta = (new_h - h).abs().max()
                h = new_h
                step = step + 1
                if delta < TOL:
                    break
            return h, step

    paddle.seed(0)
    return EarlyExitRNN()


def _x(paddle):
    rng = np.random.default_rng(0)
    return paddle.to_tensor((rng.standard_normal((BATCH, HIDDEN)) * 0.1).astype("float32"))


def _times(paddle, model, x) -> tuple[float, float, int]:
    def run():
        with paddle.no_grad():
            h, step = model(x)
        return float(h.sum()), int(step)

    first = time.perf_counter()
    _, steps = run()
    first = (time.perf_counter() - first) * 1e3
    _, steady, _ = first_and_steady_ms(lambda: run()[0], n=5, repeats=3, warmup=2)
    return first, steady, steps


def _train_ms(model, x) -> float:
    def step():
        h, _ = model(x)
        (h * h).sum().backward()
        g = float(model.cell.weight_hh.grad.sum())
        model.clear_gradients()
        return g

    return first_and_steady_ms(step, n=5, repeats=3, warmup=2)[1]


def _run(paddle) -> dict:
    x = _x(paddle)
    out = {}
    e_first, e_ms, steps = _times(paddle, _model(paddle), x)
    out.update(eager_first_ms=e_first, eager_ms=e_ms, steps=steps)
    static = paddle.jit.to_static(_model(paddle))
    s_first, s_ms, s_steps = _times(paddle, static, x)
    out.update(static_first_ms=s_first, static_ms=s_ms, static_steps=s_steps)
    out["eager_train_ms"] = _train_ms(_model(paddle), x)
    out["static_train_ms"] = _train_ms(paddle.jit.to_static(_model(paddle)), x)
    return out


def _jax_twin(model, x) -> float:
    import jax
    import jax.numpy as jnp

    w_ih, w_hh = model.cell.weight_ih._value, model.cell.weight_hh._value
    b_ih, b_hh = model.cell.bias_ih._value, model.cell.bias_hh._value

    def cell(x, h):
        xr, xz, xc = jnp.split(x @ w_ih.T + b_ih, 3, axis=-1)
        hr, hz, hc = jnp.split(h @ w_hh.T + b_hh, 3, axis=-1)
        r, z = jax.nn.sigmoid(xr + hr), jax.nn.sigmoid(xz + hz)
        c = jnp.tanh(xc + r * hc)
        return (h - c) * z + c

    @jax.jit
    def forward(x):
        def cond(s):
            h, step, delta = s
            return (step < MAX_STEPS) & (delta >= TOL)

        def body(s):
            h, step, _ = s
            new = cell(x, h)
            return new, step + 1, jnp.abs(new - h).max()

        h0 = jnp.zeros((x.shape[0], HIDDEN), x.dtype)
        return jax.lax.while_loop(cond, body, (h0, 0, jnp.inf))

    _, ms, _ = first_and_steady_ms(lambda: forward(x)[0].sum(), n=5, repeats=3, warmup=2)

    @jax.jit
    def grad_hh(w, x):  # the training step's gradient: a masked scan over MAX_STEPS
        def loss(w):
            def step(s, _):
                h, done = s
                new = cell_w(w, x, h)
                h2 = jnp.where(done, h, new)
                return (h2, done | (jnp.abs(new - h).max() < TOL)), None

            h0 = jnp.zeros((x.shape[0], HIDDEN), x.dtype)
            (h, _), _ = jax.lax.scan(step, (h0, jnp.bool_(False)), None, length=MAX_STEPS)
            return (h * h).sum()

        return jax.grad(loss)(w)

    def cell_w(w, x, h):
        xr, xz, xc = jnp.split(x @ w_ih.T + b_ih, 3, axis=-1)
        hr, hz, hc = jnp.split(h @ w.T + b_hh, 3, axis=-1)
        r, z = jax.nn.sigmoid(xr + hr), jax.nn.sigmoid(xz + hz)
        c = jnp.tanh(xc + r * hc)
        return (h - c) * z + c

    _, train_ms, _ = first_and_steady_ms(lambda: grad_hh(w_hh, x).sum(), n=5, repeats=3, warmup=2)
    return ms, train_ms


def main() -> None:
    if run_inner_paddle(_run):
        return
    import paddle_compat as paddle

    ours = _run(paddle)
    ours["jax_ms"], ours["jax_train_ms"] = _jax_twin(_model(paddle), _x(paddle)._value)
    ref = paddle_side(__file__)
    print(f"early-exit GRU RNN forward, batch {BATCH}, hidden {HIDDEN}, {ours['steps']} steps")
    rows = [
        ("paddle-compat eager", ours["eager_ms"]),
        ("paddle-compat to_static", ours["static_ms"]),
        ("hand-written JAX (while_loop, jit)", ours["jax_ms"]),
        ("train step: paddle-compat eager", ours["eager_train_ms"]),
        ("train step: paddle-compat to_static", ours["static_train_ms"]),
        ("train step: hand-written JAX (masked scan, grad only)", ours["jax_train_ms"]),
    ]
    if ref:
        rows += [
            ("Paddle 3.3.1 eager", ref["eager_ms"]),
            ("Paddle 3.3.1 to_static", ref["static_ms"]),
            ("train step: Paddle 3.3.1 eager", ref["eager_train_ms"]),
            ("train step: Paddle 3.3.1 to_static", ref["static_train_ms"]),
        ]
    ratios = {"eager/static": ours["eager_ms"] / ours["static_ms"]}
    ratios["static/jax"] = ours["static_ms"] / ours["jax_ms"]
    ratios["train eager/static"] = ours["eager_train_ms"] / ours["static_train_ms"]
    ratios["train static/jax"] = ours["static_train_ms"] / ours["jax_train_ms"]
    if ref:
        ratios["static/paddle_static"] = ours["static_ms"] / ref["static_ms"]
        ratios["eager/paddle_eager"] = ours["eager_ms"] / ref["eager_ms"]
        ratios["train static/paddle_static"] = ours["static_train_ms"] / ref["static_train_ms"]
    print_ms_rows(rows, ratios, ours, ref)


if __name__ == "__main__":
    main()
