"""Eager paddle.sparse.nn on a point-cloud-like COO Tensor: paddle-compat against real Paddle
on CPU (same run, side venv).

    .venv/bin/python benchmarks/bench_sparse_conv.py

Input: 2048 active sites in a [1, 32, 32, 32] grid with 16 channels. Cases: SubmConv3D
(16 -> 16, kernel 3) forward on the same input (a rulebook kept from the last call), on a new
input Tensor each call (the rulebook built every time), forward + backward; Conv3D (kernel 3,
stride 2) forward; MaxPool3D (kernel 2) forward. Prints microseconds per call and the ratio
ours / Paddle; the last line is the JSON of the numbers.
"""

from __future__ import annotations

import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, run_inner_paddle  # noqa: E402

GRID, NNZ, C = 32, 2048, 16


def _data():
    r = np.random.default_rng(0)
    lin = np.sort(r.choice(GRID**3, NNZ, replace=False))
    idx = np.stack([np.zeros(NNZ, np.int64), *np.unravel_index(lin, (GRID,) * 3)])
    return idx, r.standard_normal((NNZ, C)).astype("float32")


def _cases(paddle, sync_values, sync_grad) -> dict:
    S = paddle.sparse
    idx, vals = _data()
    shape = [1, GRID, GRID, GRID, C]
    paddle.seed(0)
    subm = S.nn.SubmConv3D(C, C, 3)
    conv = S.nn.Conv3D(C, C, 3, stride=2)
    pool = S.nn.MaxPool3D(2)
    x = S.sparse_coo_tensor(idx, vals, shape)
    idx_t, vals_t = paddle.to_tensor(idx), paddle.to_tensor(vals)

    def fresh():
        return sync_values(subm(S.sparse_coo_tensor(idx_t, vals_t, shape)))

    def fwd_bwd():
        v = paddle.to_tensor(vals, stop_gradient=False)
        y = subm(S.sparse_coo_tensor(idx_t, v, shape, stop_gradient=False))
        y.values().sum().backward()
        out = sync_grad(subm.weight.grad)
        subm.clear_gradients()
        return out

    return {
        "SubmConv3D fwd (same input)": lambda: sync_values(subm(x)),
        "SubmConv3D fwd (new input)": fresh,
        "SubmConv3D fwd+bwd (new input)": fwd_bwd,
        "Conv3D stride 2 fwd": lambda: sync_values(conv(x)),
        "MaxPool3D 2 fwd": lambda: sync_values(pool(x)),
    }


def _time(cases: dict) -> dict:
    return {k: best_us(f, n=10, repeats=5, warmup=3) for k, f in cases.items()}


def _run_paddle(paddle) -> dict:
    return _time(_cases(paddle, lambda y: y, lambda g: g))  # Paddle's CPU kernels are done


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _time(
        _cases(
            paddle,
            lambda y: y._sp_values.block_until_ready(),
            lambda g: g._value.block_until_ready(),
        )
    )
    pd = paddle_side(__file__)
    print(f"{'case':34s} {'ours us':>10s} {'Paddle us':>10s} {'/Paddle':>8s}")
    for k, v in ours.items():
        p = pd.get(k)
        ratio = v / p if p else float("nan")
        print(f"{k:34s} {v:10.1f} {p or float('nan'):10.1f} {ratio:8.2f}")
    print(json.dumps({"ours_us": ours, "paddle_us": pd}))


if __name__ == "__main__":
    main()
