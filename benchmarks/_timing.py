"""The timing helper the benchmarks share: the best mean time of a call, in microseconds."""

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
