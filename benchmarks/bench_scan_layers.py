"""``paddle.jit.scan_layers``: a to_static AdamW train step of a deep stack of identical
blocks, unrolled vs compiled as one ``lax.scan`` (a paddle-compat extension).

Models: 12 ``TransformerEncoderLayer`` (d_model 32, 4 heads, feed-forward 64, dropout 0.1,
batch 4 x 16 tokens) and 24 residual MLP blocks (64 -> 128 -> 64, GELU, dropout 0.1, batch 32).
Each variant runs in a fresh process with the persistent compile cache off, and reports the
first call (to_static's eager discovery: the same for both), the second call split into
to_static's trace (the user's Python run on tracers, ``functional.PureFn``) and the rest (the
XLA compile of the traced jaxpr and the run), the steady step time, and the largest
difference of the losses (relative) and of the parameters (absolute, with the worst one's name)
after ``STEPS`` steps (same seed, same weights: dropout draws the same masks). AdamW divides by
the gradient's root mean square, so entries whose gradient is near zero turn float32 rounding
differences into visible ones (~1e-5 after 5 steps of lr 1e-3); with SGD outputs, gradients
and parameters agree to ~1e-6 (tests/test_scan_layers.py).

Measured on the 2-core CPU machine (shared, so times are noisy; JAX 0.10.2): encoder12 trace +
compile 203 s unrolled vs 20 s scanned (10x), step 64 ms vs 17 ms; mlp24 compile 4.8 s vs
7.4 s (0.6x), step 7.4 ms vs 8.0 ms. XLA on CPU compiles a while loop of a tiny block more
slowly than 24 unrolled copies (plain JAX, value_and_grad + SGD of the same MLP: 0.73 s unrolled,
1.36 s as lax.scan); the scan pays off when the block itself is costly to compile (attention,
dropout's random bits).

    .venv/bin/python benchmarks/bench_scan_layers.py

The last line is the JSON of the numbers.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us  # noqa: E402

STEPS = 5


def _mlp(paddle, n):
    class Block(paddle.nn.Layer):
        def __init__(self, d=64):
            super().__init__()
            self.fc1 = paddle.nn.Linear(d, 2 * d)
            self.fc2 = paddle.nn.Linear(2 * d, d)
            self.drop = paddle.nn.Dropout(0.1)

        def forward(self, x):
            return x + 0.2 * self.drop(self.fc2(paddle.nn.functional.gelu(self.fc1(x))))

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.layers = paddle.nn.LayerList([Block() for _ in range(n)])

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    x = np.random.default_rng(0).standard_normal((32, 64)).astype("float32")
    return Net(), (x,), lambda net: net.layers


def _encoder(paddle, n):
    layer = paddle.nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1)
    enc = paddle.nn.TransformerEncoder(layer, n)
    x = np.random.default_rng(0).standard_normal((4, 16, 32)).astype("float32")
    return enc, (x,), lambda net: net.layers


def _run(build, n, scan):
    import paddle
    from paddle_compat._core import functional

    paddle.seed(7)
    net, data, layers = build(paddle, n)
    if scan:
        paddle.jit.scan_layers(layers(net))
    opt = paddle.optimizer.AdamW(1e-3, parameters=net.parameters())
    args = [paddle.to_tensor(a) for a in data]

    @paddle.jit.to_static
    def step(*xs):
        y = net(*xs)
        loss = (y * y).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    traced = []
    pure_call = functional.PureFn.__call__

    def timed_trace(self, *a):  # to_static's trace (Python + jaxpr), before XLA compiles
        t0 = time.perf_counter()
        out = pure_call(self, *a)
        traced.append((time.perf_counter() - t0) * 1e3)
        return out

    functional.PureFn.__call__ = timed_trace
    paddle.seed(11)
    times, losses = [], []
    for _ in range(2):
        t0 = time.perf_counter()
        losses.append(float(step(*args)))
        times.append((time.perf_counter() - t0) * 1e3)
    for _ in range(STEPS - 2):
        losses.append(float(step(*args)))
    functional.PureFn.__call__ = pure_call
    params = {k: p.numpy().tolist() for k, p in net.named_parameters()}
    steady = best_us(lambda: float(step(*args)), n=10, repeats=3, warmup=2) / 1e3
    timing = {
        "discover_ms": times[0],
        "trace_ms": sum(traced),
        "compile_ms": times[1] - sum(traced),
        "step_ms": steady,
    }
    return {"timing": timing, "losses": losses, "params": params}


MODELS = {"encoder12": (_encoder, 12), "mlp24": (_mlp, 24)}


def _child(name: str, variant: str) -> dict:
    import os
    import subprocess

    env = dict(os.environ, PADDLE_COMPAT_CACHE_DIR="off")
    res = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--inner", name, variant],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def _rel_diff(a, b) -> float:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.abs(a - b).max() / max(np.abs(a).max(), 1e-30))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--inner":
        build, n = MODELS[sys.argv[2]]
        print(json.dumps(_run(build, n, sys.argv[3] == "scanned")))
        return
    rows = {}
    for name in MODELS:
        r0, r1 = _child(name, "unrolled"), _child(name, "scanned")
        p_diff = {
            k: float(np.abs(np.subtract(r0["params"][k], r1["params"][k])).max())
            for k in r0["params"]
        }
        worst = max(p_diff, key=p_diff.get)
        u, s = r0["timing"], r1["timing"]
        rows[name] = {
            "unrolled": u,
            "scanned": s,
            "trace_ratio": u["trace_ms"] / s["trace_ms"],
            "compile_ratio": u["compile_ms"] / s["compile_ms"],
            "step_ratio": s["step_ms"] / u["step_ms"],
            "loss_rel_diff": _rel_diff(r0["losses"], r1["losses"]),
            "param_abs_diff": p_diff[worst],
            "param_worst": worst,
        }
    print(
        f"{'model':<10} {'variant':<9} {'1st call ms':>12} {'trace ms':>9} {'compile ms':>11} "
        f"{'step ms':>8}"
    )
    for name, r in rows.items():
        for v in ("unrolled", "scanned"):
            t = r[v]
            print(
                f"{name:<10} {v:<9} {t['discover_ms']:>12.0f} {t['trace_ms']:>9.0f} "
                f"{t['compile_ms']:>11.0f} {t['step_ms']:>8.2f}"
            )
        print(
            f"{name:<10} unrolled/scanned: trace {r['trace_ratio']:.1f}x, compile "
            f"{r['compile_ratio']:.1f}x; step scanned/unrolled {r['step_ratio']:.2f}x; after "
            f"{STEPS} AdamW steps: losses {r['loss_rel_diff']:.1e} relative, parameters "
            f"{r['param_abs_diff']:.1e} ({r['param_worst']})"
        )
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
