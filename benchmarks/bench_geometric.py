"""paddle.geometric message passing and segment pooling on a 2,000-node, 10,000-edge graph with
64 float32 features: paddle-compat against real Paddle on CPU (same run, side venv) and
against the same reduction hand-written with ``jax.ops`` under one ``jax.jit``.

    .venv/bin/python benchmarks/bench_geometric.py

Cases: eager ``send_u_recv`` (sum, max), eager ``send_u_recv`` mean forward + backward,
eager ``segment_sum`` (sorted ids, the output size read on the host), and ``to_static``
functions (send_u_recv sum forward; a max-aggregation forward + backward). Prints
microseconds per call and the ratios ours / Paddle and ours / jax; the last line is the JSON
of the numbers.
"""

from __future__ import annotations

import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, run_inner_paddle  # noqa: E402

NODES, EDGES, FEATURES = 2000, 10_000, 64


def _data() -> dict:
    r = np.random.default_rng(0)
    return {
        "x": r.standard_normal((NODES, FEATURES)).astype("float32"),
        "src": r.integers(0, NODES, EDGES).astype("int64"),
        "dst": r.integers(0, NODES, EDGES).astype("int64"),
        "data": r.standard_normal((EDGES, FEATURES)).astype("float32"),
        "ids": np.sort(r.integers(0, NODES, EDGES)).astype("int64"),
    }


def _cases(paddle) -> dict:
    d = {k: paddle.to_tensor(v) for k, v in _data().items()}
    G = paddle.geometric
    xg = paddle.to_tensor(_data()["x"], stop_gradient=False)

    def mean_fwd_bwd():
        out = G.send_u_recv(xg, d["src"], d["dst"], "mean")
        out.sum().backward()
        g = xg.grad
        xg.clear_grad()
        return g

    static_sum = paddle.jit.to_static(lambda x: G.send_u_recv(x, d["src"], d["dst"], "sum"))

    def step(x):
        out = G.send_u_recv(x, d["src"], d["dst"], "max")
        (g,) = paddle.grad(out.sum(), x)
        return g

    static_step = paddle.jit.to_static(step)
    return {
        "send_u_recv sum": lambda: G.send_u_recv(d["x"], d["src"], d["dst"], "sum"),
        "send_u_recv max": lambda: G.send_u_recv(d["x"], d["src"], d["dst"], "max"),
        "send_u_recv mean fwd+bwd": mean_fwd_bwd,
        "segment_sum": lambda: G.segment_sum(d["data"], d["ids"]),
        "to_static send_u_recv sum": lambda: static_sum(d["x"]),
        "to_static max fwd+bwd": lambda: static_step(xg),
    }


def _time(cases: dict, sync) -> dict:
    return {k: best_us(lambda f=f: sync(f()), n=20, repeats=5, warmup=3) for k, f in cases.items()}


def _run_paddle(paddle) -> dict:
    return _time(_cases(paddle), lambda out: out)  # Paddle's CPU kernels return when done


def _jax_cases() -> dict:
    import jax
    import jax.numpy as jnp

    d = {k: jnp.asarray(v) for k, v in _data().items()}

    @jax.jit
    def send_sum(x, src, dst):
        return jax.ops.segment_sum(x[src], dst, NODES)

    @jax.jit
    def send_max(x, src, dst):
        return jax.ops.segment_max(x[src], dst, NODES)

    @jax.jit
    def mean_grad(x, src, dst):
        def f(x):
            s = jax.ops.segment_sum(x[src], dst, NODES)
            c = jax.ops.segment_sum(jnp.ones_like(x[src]), dst, NODES)
            return (s / jnp.maximum(c, 1)).sum()

        return jax.grad(f)(x)

    @jax.jit
    def seg_sum(data, ids):
        return jax.ops.segment_sum(data, ids, NODES, indices_are_sorted=True)

    x, src, dst = d["x"], d["src"], d["dst"]
    return {
        "send_u_recv sum": lambda: send_sum(x, src, dst),
        "send_u_recv max": lambda: send_max(x, src, dst),
        "send_u_recv mean fwd+bwd": lambda: mean_grad(x, src, dst),
        "segment_sum": lambda: seg_sum(d["data"], d["ids"]),
        "to_static send_u_recv sum": lambda: send_sum(x, src, dst),
        "to_static max fwd+bwd": lambda: jax.grad(lambda x: send_max(x, src, dst).sum())(x),
    }


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _time(_cases(paddle), lambda out: out._value.block_until_ready())
    ref = _time(_jax_cases(), lambda out: out.block_until_ready())
    pd = paddle_side(__file__)
    print(
        f"{'case':28s} {'ours us':>9s} {'Paddle us':>10s} {'jax us':>9s} {'/Paddle':>8s} {'/jax':>6s}"
    )
    for k, v in ours.items():
        p = pd.get(k)
        print(
            f"{k:28s} {v:9.1f} {p or float('nan'):10.1f} {ref[k]:9.1f} "
            f"{(v / p if p else float('nan')):8.2f} {v / ref[k]:6.2f}"
        )
    print(json.dumps({"ours_us": ours, "paddle_us": pd, "jax_us": ref}))


if __name__ == "__main__":
    main()
