"""Paddle's views (results that share their input's buffer: indexing, reshape, transpose,
diagonal, unbind, view(dtype), unfold, narrow, real/imag, ...) and writes through them:
paddle-compat against real Paddle on CPU (same run, side venv).

    .venv/bin/python benchmarks/bench_views.py

Each case is one eager call on a small float32 [64, 64] input (copies such as split for
comparison); "write" cases fill a view in place, which here recomputes the shared buffer and
every live member of the view group. Prints microseconds per call and the ratio ours /
Paddle; the last line is the JSON of the numbers.
"""

from __future__ import annotations

import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, print_vs_paddle, run_inner_paddle  # noqa: E402


def _cases(paddle) -> dict:
    x = paddle.to_tensor(np.arange(64 * 64, dtype="float32").reshape(64, 64))
    c = paddle.complex(x, x)
    y = x[1:]  # a view with a live base
    return {
        "x[0]": lambda: x[0],
        "x.reshape([4096])": lambda: x.reshape([4096]),
        "x.transpose([1, 0])": lambda: x.transpose([1, 0]),
        "x.diagonal()": lambda: x.diagonal(),
        "paddle.unbind(x[:4])": lambda: paddle.unbind(x[:4])[0],
        "paddle.split(x, 2) (copy)": lambda: paddle.split(x, 2)[0],
        "x.view('int32')": lambda: x.view("int32"),
        "x.unfold(1, 8, 8)": lambda: x.unfold(1, 8, 8),
        "x.narrow(0, 1, 8)": lambda: x.narrow(0, 1, 8),
        "paddle.moveaxis(x, 0, 1)": lambda: paddle.moveaxis(x, 0, 1),
        "paddle.real(c)": lambda: paddle.real(c),
        "x.abs() (not a view)": lambda: x.abs(),
        "y.fill_(1.0) (write to a view)": lambda: y.fill_(1.0),
        "x.fill_(1.0) (base with a view)": lambda: x.fill_(1.0),
    }


def _time(cases: dict, sync) -> dict:
    return {k: best_us(lambda f=f: sync(f()), n=50, repeats=7, warmup=5) for k, f in cases.items()}


def _run_paddle(paddle) -> dict:
    return _time(_cases(paddle), lambda out: out)


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _time(_cases(paddle), lambda out: out._value.block_until_ready())
    pd = paddle_side(__file__)
    print_vs_paddle(ours, pd)


if __name__ == "__main__":
    main()
