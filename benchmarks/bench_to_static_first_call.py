"""The first calls of a new ``to_static`` model (an MLP, 2x Linear(64, 64), batch 8): the
eager call that discovers its state plus the call that traces and compiles it, in a process
that holds few objects and in one that holds ``BIG`` more (a notebook with data loaded, a test
suite, a server). paddle-compat vs real Paddle 3.3.1 (same run, side venv) vs a fresh
``jax.jit`` function's first call. A compile already in JAX's persistent cache is read back, as
in any second session.

    .venv/bin/python benchmarks/bench_to_static_first_call.py

Prints the median milliseconds and the ratios; the last line is the JSON of the numbers.
"""

from __future__ import annotations

import sys
import time

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import paddle_side, print_ms_rows, run_inner_paddle  # noqa: E402

BIG, FRESH = 3_000_000, 7


def _model(paddle):
    paddle.seed(0)
    return paddle.nn.Sequential(
        paddle.nn.Linear(64, 64), paddle.nn.ReLU(), paddle.nn.Linear(64, 64)
    )


def _first_calls_ms(paddle, x) -> float:
    """Median over FRESH new models (same class) of their to_static's first two calls."""
    times = []
    for _ in range(FRESH):
        fn = paddle.jit.to_static(_model(paddle))
        t0 = time.perf_counter()
        float(fn(x).sum())
        float(fn(x).sum())
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


def _run(paddle) -> dict:
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((8, 64)).astype("float32"))
    _first_calls_ms(paddle, x)  # imports and one-time setup are not what is measured
    out = {"small_heap_ms": _first_calls_ms(paddle, x)}
    heap = [[i] for i in range(BIG)]
    out["big_heap_ms"] = _first_calls_ms(paddle, x)
    del heap
    return out


def _jax_first_call_ms(model, x) -> float:
    import jax

    w1, b1 = model[0].weight._value, model[0].bias._value
    w2, b2 = model[2].weight._value, model[2].bias._value
    times = []
    for i in range(FRESH):

        @jax.jit
        def f(x, i=i):
            return jax.nn.relu(x @ w1 + b1) @ w2 + b2 + i

        t0 = time.perf_counter()
        float(f(x).sum())
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


def main() -> None:
    if run_inner_paddle(_run):
        return
    import paddle_compat as paddle

    ours = _run(paddle)
    model = _model(paddle)
    ours["jax_ms"] = _jax_first_call_ms(model, np.ones((8, 64), "float32"))
    ref = paddle_side(__file__)
    print(f"first two calls of a new to_static model (median of {FRESH}), MLP 64x64")
    rows = [
        ("paddle-compat", ours["small_heap_ms"]),
        (f"paddle-compat, {BIG:,} more objects", ours["big_heap_ms"]),
        ("fresh jax.jit, first call", ours["jax_ms"]),
    ]
    if ref:
        rows += [
            ("Paddle 3.3.1", ref["small_heap_ms"]),
            (f"Paddle 3.3.1, {BIG:,} more objects", ref["big_heap_ms"]),
        ]
    ratios = {"ours/jax": ours["small_heap_ms"] / ours["jax_ms"]}
    if ref:
        ratios["ours/paddle"] = ours["small_heap_ms"] / ref["small_heap_ms"]
        ratios["ours/paddle big heap"] = ours["big_heap_ms"] / ref["big_heap_ms"]
    print_ms_rows(rows, ratios, ours, ref, digits=1)


if __name__ == "__main__":
    main()
