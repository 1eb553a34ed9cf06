"""The timing helpers the benchmarks share: the best mean time of a call, in microseconds; a
step's first and steady time; a hand-written JAX SGD step's times; a run under real Paddle; the
table of a train-step benchmark."""

from __future__ import annotations

import time


def best_us(fn, n: int = 20, repeats: int = 5, warmup: int = 3) -> float:
    """Run ``fn`` ``warmup`` times, then ``repeats`` rounds of ``n`` calls; the fastest
    round's mean per call (the CPU may be shared, so the best round is the least noisy)."""
    for _ in range(warmup):
        fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    return best


def paddle_side(script: str, *args: str, timeout: int = 1800) -> dict:
    """Run ``script --inner *args`` under real Paddle (``$PADDLE_PYTHON``, default the side
    venv; from ``/`` so it does not import this repo's ``paddle``) and return the JSON dict it
    prints last; ``{}`` when that Python is missing or the run fails (its stderr is shown)."""
    import json
    import os
    import subprocess
    import sys

    paddle_py = os.environ.get("PADDLE_PYTHON", "/work/paddle-venv/bin/python")
    if not os.path.exists(paddle_py):
        return {}
    res = subprocess.run(
        [paddle_py, os.path.abspath(script), "--inner", *args],
        capture_output=True,
        text=True,
        cwd="/",
        timeout=timeout,
    )
    if res.returncode != 0:
        print(res.stderr[-2000:], file=sys.stderr)
        return {}
    return json.loads(res.stdout.strip().splitlines()[-1])


def first_and_steady_ms(fn, n: int = 10, repeats: int = 5, warmup: int = 3) -> tuple[float, float]:
    """(first call in ms, best steady ms per call) of ``fn``, whose result ``float()`` waits
    for."""
    t0 = time.perf_counter()
    float(fn())
    first = (time.perf_counter() - t0) * 1e3
    return first, best_us(lambda: float(fn()), n=n, repeats=repeats, warmup=warmup) / 1e3


def time_jax_sgd(loss, params, x, lr: float = 1e-3, **timing) -> dict:
    """``{"first_ms", "ms"}`` of a jitted step ``params -= lr * grad(loss)(params, x)``: the
    hand-written JAX twin of a Paddle train step (the update keeps XLA from dropping the
    backward)."""
    import jax

    @jax.jit
    def step(params, x):
        value, grads = jax.value_and_grad(loss)(params, x)
        return value, jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)

    state = [params]

    def run():
        value, state[0] = step(state[0], x)
        return value

    first, steady = first_and_steady_ms(run, **timing)
    return {"first_ms": first, "ms": steady}


def report_train_step(title: str, ours: dict, ref: dict, twin: dict, twin_name: str) -> None:
    """Print a train-step table (ms per step, first call, ratios to Paddle and to the JAX twin)
    from ``ours`` (eager_ms/eager_first_ms/static_ms/static_compile_ms), Paddle's ``ref``
    (eager_ms/eager_first_ms, may be empty) and the ``twin`` (ms/first_ms), then the raw JSON."""
    import json

    p = ref.get("eager_ms")
    rows = [
        ("paddle-compat eager", ours["eager_ms"], ours["eager_first_ms"]),
        ("paddle-compat to_static", ours["static_ms"], ours["static_compile_ms"]),
        ("real Paddle eager (CPU)", p, ref.get("eager_first_ms")),
        (twin_name, twin["ms"], twin["first_ms"]),
    ]
    print(title)
    print(f"{'':26s} {'ms/step':>9s} {'first call ms':>14s} {'vs Paddle':>10s} {'vs JAX':>8s}")
    for name, ms, first_ms in rows:
        if ms is None:
            print(f"{name:26s} {'-':>9s}")
            continue
        vs_p = "-" if p is None else f"{ms / p:.2f}"
        print(f"{name:26s} {ms:9.2f} {first_ms:14.0f} {vs_p:>10s} {ms / twin['ms']:8.2f}")
    print(json.dumps({"paddle_compat": ours, "paddle": ref, "jax": twin}))
