"""AMP train step: an MLP 784-512-512-10 (batch 128, Adam) in float32 and under
``paddle.amp.auto_cast`` bfloat16 (``BENCH_AMP_DTYPE=float16`` on a GPU) at O1 and O2, eager
and ``to_static``, against a hand-written JAX step with the same casts (low-precision matmuls,
float32 loss and update) and real Paddle's step (its CPU build ignores auto_cast, so that is
its float32 step).

    python benchmarks/bench_amp.py            # prints the table (run_all.py adds it to the docs)
    PADDLE_PYTHON=... python benchmarks/bench_amp.py
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
from _timing import best_us, paddle_side

BATCH, SIZES = 128, (784, 512, 512, 10)
DTYPE = os.environ.get("BENCH_AMP_DTYPE", "bfloat16")  # float16 on a GPU


_best = best_us


def _data():
    r = np.random.default_rng(0)
    return (
        r.standard_normal((BATCH, SIZES[0])).astype("float32"),
        r.integers(0, SIZES[-1], (BATCH,)).astype("int64"),
    )


def paddle_steps() -> dict:
    """Step times (us) of this framework's Paddle API: ours or real Paddle (same code)."""
    import paddle.nn as nn
    import paddle.nn.functional as F

    import paddle

    x_np, y_np = _data()
    out = {}
    levels = ("fp32", "O1", "O2") if "paddle_compat" in paddle.__file__ else ("fp32",)
    for compiled in (False, True):
        for level in levels:
            paddle.seed(0)
            layers = []
            for a, b in zip(SIZES[:-1], SIZES[1:]):
                layers += [nn.Linear(a, b), nn.ReLU()]
            model = nn.Sequential(*layers[:-1])
            opt = paddle.optimizer.Adam(1e-3, parameters=model.parameters())
            if level == "O2":
                model, opt = paddle.amp.decorate(model, opt, level="O2", dtype=DTYPE)
            x, y = paddle.to_tensor(x_np), paddle.to_tensor(y_np)

            def step(x, y, level=level, model=model, opt=opt):
                amp = {"enable": level != "fp32", "level": "O1" if level == "fp32" else level}
                with paddle.amp.auto_cast(**amp, dtype=DTYPE):
                    loss = F.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                opt.clear_grad()
                return loss

            if compiled:
                step = paddle.jit.to_static(step)

            def run(step=step, x=x, y=y):
                float(step(x, y))

            name = f"{'to_static' if compiled else 'eager'} {level}"
            out[name] = _best(run, n=10 if not compiled else 20)
    return out


def jax_step() -> float:
    """Hand-written JAX O1 step: low-precision (``DTYPE``) matmuls and bias adds, float32 loss
    and Adam."""
    import jax
    import jax.numpy as jnp
    import optax

    r = np.random.default_rng(1)
    params = [
        (
            jnp.asarray(r.standard_normal((a, b)).astype("float32") * 0.05),
            jnp.zeros((b,), jnp.float32),
        )
        for a, b in zip(SIZES[:-1], SIZES[1:])
    ]
    tx = optax.adam(1e-3)
    state = tx.init(params)

    def loss_fn(params, x, y):
        h = x
        for i, (w, b) in enumerate(params):
            low = jnp.dtype(DTYPE)
            h = jnp.matmul(h.astype(low), w.astype(low)) + b.astype(low)
            if i < len(params) - 1:
                h = jax.nn.relu(h)
        logits = h.astype(jnp.float32)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    @jax.jit
    def step(params, state, x, y):
        loss, g = jax.value_and_grad(loss_fn)(params, x, y)
        upd, state = tx.update(g, state, params)
        return optax.apply_updates(params, upd), state, loss

    x_np, y_np = _data()
    x, y = jnp.asarray(x_np), jnp.asarray(y_np)
    box = [params, state]

    def run():
        box[0], box[1], loss = step(box[0], box[1], x, y)
        float(loss)

    return _best(run)


def main() -> None:
    if "--inner" in sys.argv:
        print(json.dumps(paddle_steps()))
        return
    here = os.path.dirname(os.path.abspath(__file__))
    ours = paddle_steps()
    real = paddle_side(os.path.join(here, "bench_amp.py"), timeout=1200)
    jx = jax_step()
    import jax

    platform = jax.devices()[0].platform.upper()
    print(f"MLP {'-'.join(map(str, SIZES))}, batch {BATCH}, Adam; {DTYPE} AMP on {platform}")
    print(f"| step | paddle-compat (us) | vs own float32 | vs Paddle float32 | vs JAX {DTYPE} |")
    print("|---|---|---|---|---|")
    for name, t in ours.items():
        mode = name.split()[0]
        base = ours[f"{mode} fp32"]
        p = real.get(f"{mode} fp32")
        print(
            f"| {name} | {t:.0f} | {t / base:.2f}x | {'' if p is None else f'{t / p:.2f}x'} | "
            f"{t / jx:.2f}x |"
        )
    print(f"| hand-written JAX O1 {DTYPE} (jit) | {jx:.0f} | | | 1.00x |")
    for k, v in real.items():
        print(f"| real Paddle {k} | {v:.0f} | | 1.00x | |")


if __name__ == "__main__":
    main()
