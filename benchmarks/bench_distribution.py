"""Eager paddle.distribution calls: paddle-compat against real Paddle on CPU (same run, side
venv).

    .venv/bin/python benchmarks/bench_distribution.py

Cases on a batch of 1000 Normals (float32): ``sample([100])``, ``rsample([100])``,
``log_prob`` of a [100, 1000] value, ``entropy``, ``kl_divergence`` of two Normals, and
``Gamma.sample([100])`` (the host gamma sampler). Prints microseconds per call and the ratio
ours / Paddle; the last line is the JSON of the numbers.
"""

from __future__ import annotations

import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, print_vs_paddle, run_inner_paddle  # noqa: E402

BATCH, DRAWS = 1000, 100


def _cases(paddle) -> dict:
    r = np.random.default_rng(0)
    loc = paddle.to_tensor(r.standard_normal(BATCH).astype("float32"))
    scale = paddle.to_tensor((np.abs(r.standard_normal(BATCH)) + 0.5).astype("float32"))
    value = paddle.to_tensor(r.standard_normal((DRAWS, BATCH)).astype("float32"))
    D = paddle.distribution
    p, q = D.Normal(loc, scale), D.Normal(loc * 0.5, scale + 1.0)
    g = D.Gamma(scale, scale)
    return {
        "Normal.sample([100]) [1000]": lambda: p.sample([DRAWS]),
        "Normal.rsample([100]) [1000]": lambda: p.rsample([DRAWS]),
        "Normal.log_prob [100, 1000]": lambda: p.log_prob(value),
        "Normal.entropy [1000]": lambda: p.entropy(),
        "kl_divergence(Normal, Normal) [1000]": lambda: D.kl_divergence(p, q),
        "Normal(loc, scale) + log_prob": lambda: D.Normal(loc, scale).log_prob(value),
        "Gamma.sample([100]) [1000]": lambda: g.sample([DRAWS]),
    }


def _time(cases: dict, sync) -> dict:
    return {k: best_us(lambda f=f: sync(f()), n=10, repeats=5, warmup=3) for k, f in cases.items()}


def _run_paddle(paddle) -> dict:
    return _time(_cases(paddle), lambda out: out)  # Paddle's CPU kernels return when done


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _time(_cases(paddle), lambda out: out._value.block_until_ready())
    pd = paddle_side(__file__)
    print_vs_paddle(ours, pd)


if __name__ == "__main__":
    main()
