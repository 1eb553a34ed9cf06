"""What Paddle's value checks cost in eager mode (``_core/runtime_checks.py``): the eager time
per call of the checked ops with their checks, without them (the op's ``check`` removed for
the run: what the op cost before the checks existed), and under real Paddle, same run.

    .venv/bin/python benchmarks/bench_runtime_checks.py

Prints a table of microseconds per call and the ratios checked / unchecked and
checked / Paddle.
"""

from __future__ import annotations

import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side  # noqa: E402

N_IDX = 64


def _cases(paddle):
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((1024, 64)).astype("float32"))
    idx = paddle.to_tensor(rng.integers(0, 1024, N_IDX))
    table = paddle.to_tensor(rng.standard_normal((1000, 32)).astype("float32"))
    ids = paddle.to_tensor(rng.integers(0, 1000, (8, 16)))
    a = paddle.to_tensor(rng.integers(1, 100, 4096))
    b = paddle.to_tensor(rng.integers(1, 7, 4096))
    along = paddle.to_tensor(rng.integers(0, 64, (1024, 1)))
    F = paddle.nn.functional
    return {
        "gather": ("gather", lambda: paddle.gather(x, idx)),
        "index_select": ("index_select", lambda: paddle.index_select(x, idx, axis=0)),
        "x[idx]": (None, lambda: x[idx]),
        "take_along_axis": ("take_along_axis", lambda: paddle.take_along_axis(x, along, 1)),
        "embedding": (None, lambda: F.embedding(ids, table)),
        "int floor_divide": ("floor_divide", lambda: a // b),
    }


def _time(paddle, cases) -> dict:
    return {k: best_us(lambda f=f: f().numpy(), n=50) for k, (_, f) in cases.items()}


def main() -> None:
    if "--inner" in sys.argv:  # under real Paddle
        import paddle

        paddle.set_device("cpu")
        print(json.dumps(_time(paddle, _cases(paddle))))
        return
    import paddle_compat as paddle
    from paddle_compat._core.registry import REGISTRY

    cases = _cases(paddle)
    checked = _time(paddle, cases)
    saved = {name: REGISTRY[name].check for name, _ in cases.values() if name}
    for name in saved:
        REGISTRY[name].check = None
    try:
        unchecked = _time(paddle, cases)
    finally:
        for name, c in saved.items():
            REGISTRY[name].check = c
    ref = paddle_side(__file__)
    print(
        f"{'op':18s} {'checked us':>11s} {'unchecked':>10s} {'Paddle':>8s} {'chk/unchk':>10s} "
        f"{'chk/Paddle':>10s}"
    )
    for k in cases:
        p = ref.get(k)
        print(
            f"{k:18s} {checked[k]:11.1f} {unchecked[k]:10.1f} "
            f"{p if p is None else round(p, 1)!s:>8s} {checked[k] / unchecked[k]:10.2f} "
            f"{'-' if p is None else f'{checked[k] / p:.2f}':>10s}"
        )


if __name__ == "__main__":
    main()
