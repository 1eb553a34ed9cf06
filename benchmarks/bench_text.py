"""paddle.text.viterbi_decode (eager and compiled with paddle.jit.to_static) and the
paddle.incubate LookAhead / ModelAverage steps: paddle-compat against real Paddle on CPU (same
run, side venv).

    .venv/bin/python benchmarks/bench_text.py

Viterbi cases are [batch, seq_len, num_tags] float32 emissions with lengths up to seq_len,
both tag modes; the optimizer cases step every parameter of a 4-layer MLP (gradients set
once). Prints microseconds per call and the ratio ours / Paddle; the last line is the JSON of
the numbers.
"""

from __future__ import annotations

import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, print_vs_paddle, run_inner_paddle  # noqa: E402

SHAPES = [(8, 32, 10), (64, 128, 20), (256, 64, 50)]


def _viterbi_cases(paddle, compiled: bool) -> dict:
    cases = {}
    decode = paddle.text.viterbi_decode
    if compiled:
        decode = paddle.jit.to_static(paddle.text.viterbi_decode, full_graph=True)
    for b, t, n in SHAPES:
        r = np.random.default_rng(0)
        pot = paddle.to_tensor(r.standard_normal((b, t, n)).astype("float32"))
        trans = paddle.to_tensor(r.standard_normal((n, n)).astype("float32"))
        lens = paddle.to_tensor(r.integers(1, t + 1, b).astype("int64"))
        for tag in (True, False):
            name = f"viterbi{' jit' if compiled else ''} [{b},{t},{n}] tag={tag}"
            cases[name] = lambda p=pot, tr=trans, ln=lens, tag=tag: decode(p, tr, ln, tag)[1]
    return cases


def _optimizer_cases(paddle, incubate) -> dict:
    paddle.seed(0)
    layers = []
    for _ in range(4):
        layers += [paddle.nn.Linear(256, 256), paddle.nn.ReLU()]
    net = paddle.nn.Sequential(*layers)
    (net(paddle.ones([8, 256])) ** 2).mean().backward()
    params = net.parameters()
    la = incubate.LookAhead(paddle.optimizer.SGD(1e-4, parameters=params), alpha=0.5, k=5)
    ma = incubate.ModelAverage(0.15, parameters=params, min_average_window=2, max_average_window=4)
    return {
        "LookAhead(SGD).step MLP 4x256": lambda: (la.step(), params[0])[1],
        "ModelAverage.step MLP 4x256": lambda: (ma.step(), params[0])[1],
    }


def _time(cases: dict, sync) -> dict:
    return {k: best_us(lambda f=f: sync(f()), n=10, repeats=5, warmup=3) for k, f in cases.items()}


def _run_paddle(paddle) -> dict:
    import paddle.incubate as incubate

    cases = _viterbi_cases(paddle, False)
    try:  # Paddle's dynamic-to-static program, where it runs on this CPU build
        jit = _viterbi_cases(paddle, True)
        for f in jit.values():
            f()
        cases.update(jit)
    except Exception as e:  # noqa: BLE001 - leave the compiled Paddle numbers out
        print(f"Paddle to_static viterbi: {type(e).__name__}: {e}", file=sys.stderr)
    cases.update(_optimizer_cases(paddle, incubate))
    return _time(cases, lambda out: out)  # Paddle's CPU kernels return when done


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle
    from paddle_compat.incubate import optimizer as incubate

    cases = {**_viterbi_cases(paddle, False), **_viterbi_cases(paddle, True)}
    cases.update(_optimizer_cases(paddle, incubate))
    ours = _time(cases, lambda out: out._value.block_until_ready())
    pd = paddle_side(__file__)
    print_vs_paddle(ours, pd)


if __name__ == "__main__":
    main()
