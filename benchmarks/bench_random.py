"""Seeded eager random sampling on the CPU stream (the host samplers of ``_core/host_*.py``):
paddle-compat against real Paddle (same run, side venv).

    .venv/bin/python benchmarks/bench_random.py

Cases: ``Categorical.sample`` and ``paddle.multinomial`` (with and without replacement),
``paddle.standard_gamma`` (float32 and float64, alphas below and above 1), ``paddle.binomial``
(the inversion and the BTRS regimes), ``paddle.poisson`` (rates below and above 12), and the
initial weights of model-size layers (XavierUniform and the conv's normal, tens of millions of
draws: the compiled twist and the host polar method). Prints
microseconds per call and the ratio ours / Paddle; the last line is the JSON of the numbers.
"""

from __future__ import annotations

import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, print_vs_paddle, run_inner_paddle  # noqa: E402

N = 10000


def _cases(paddle) -> dict:
    paddle.seed(0)
    r = np.random.default_rng(0)
    t = paddle.to_tensor
    probs = t(r.random((64, 10)).astype("float32") + 0.01)
    wide = t(r.random((64, 1000)).astype("float32") + 0.01)
    cat = paddle.distribution.Categorical(probs)
    alpha32 = t(r.uniform(0.1, 5.0, N).astype("float32"))
    alpha64 = t(r.uniform(0.1, 5.0, N))
    big_alpha = t(r.uniform(1.0, 50.0, N).astype("float32"))
    count = t(np.full(N, 20.0, "float32"))
    big_count = t(np.full(N, 1000.0, "float32"))
    p = t(np.full(N, 0.2, "float32"))
    p_big = t(np.full(N, 0.3, "float32"))
    small_rate = t(np.full(N, 4.0, "float32"))
    large_rate = t(np.full(N, 50.0, "float32"))
    return {
        "Categorical.sample([16]) [64, 10]": lambda: cat.sample([16]),
        "multinomial [64, 10] 16 repl.": lambda: paddle.multinomial(probs, 16, True),
        "multinomial [64, 10] 8 no repl.": lambda: paddle.multinomial(probs, 8, False),
        "multinomial [64, 1000] 64 repl.": lambda: paddle.multinomial(wide, 64, True),
        "multinomial [64, 1000] 64 no repl.": lambda: paddle.multinomial(wide, 64, False),
        "standard_gamma [1e4] a 0.1-5 f32": lambda: paddle.standard_gamma(alpha32),
        "standard_gamma [1e4] a 0.1-5 f64": lambda: paddle.standard_gamma(alpha64),
        "standard_gamma [1e4] a 1-50 f32": lambda: paddle.standard_gamma(big_alpha),
        "binomial [1e4] n 20 p .2 (inversion)": lambda: paddle.binomial(count, p),
        "binomial [1e4] n 1000 p .3 (BTRS)": lambda: paddle.binomial(big_count, p_big),
        "poisson [1e4] rate 4": lambda: paddle.poisson(small_rate),
        "poisson [1e4] rate 50": lambda: paddle.poisson(large_rate),
        "nn.Linear(4096, 4096) weights (16.8M uniform)": lambda: (
            paddle.nn.Linear(4096, 4096).weight
        ),
        "nn.Conv2D(512, 512, 3) weights (2.4M normal)": lambda: (
            paddle.nn.Conv2D(512, 512, 3).weight
        ),
    }


def _time(cases: dict, sync) -> dict:
    return {k: best_us(lambda f=f: sync(f()), n=5, repeats=5, warmup=2) for k, f in cases.items()}


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
