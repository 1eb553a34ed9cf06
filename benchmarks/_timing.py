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
