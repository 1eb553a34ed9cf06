"""Optimizer step time: paddle_compat's fused update (ONE compiled call for all parameters)
against a naive port that runs one compiled Adam update per parameter (the same math and the
same Tensor bookkeeping, like Paddle's per-parameter ``_C_ops.adam_``), and raw optax on a list
of arrays for reference. Reports the best of several repeats (the CPU may be shared).

    /work/venv/bin/python benchmarks/optimizer_step.py [n_params] [dim]
"""

from __future__ import annotations

import sys

import jax
import jax.numpy as jnp
import numpy as np
import optax
from _timing import best_us

import paddle
from paddle_compat._core import trace_state
from paddle_compat.optimizer._adam import adam_update


def _best(fn, n=100, repeats=7, warmup=5):
    return best_us(fn, n, repeats, warmup)


def _setup(n_params, dim):
    rng = np.random.default_rng(0)
    shapes = [(dim, dim) if i % 2 == 0 else (dim,) for i in range(n_params)]
    params = [
        paddle.to_tensor(rng.standard_normal(s).astype("float32"), stop_gradient=False)
        for s in shapes
    ]
    for p in params:
        p.grad = paddle.to_tensor(rng.standard_normal(p.shape).astype("float32"))
    return params


def main(n_params: int = 20, dim: int = 64) -> None:
    params = _setup(n_params, dim)
    opt = paddle.optimizer.Adam(1e-3, parameters=params)

    def fused():
        opt.step()
        jax.block_until_ready(params[-1]._value)

    # naive: one compiled update per parameter, same accumulators and write-back
    params2 = _setup(n_params, dim)
    opt2 = paddle.optimizer.Adam(1e-3, parameters=params2)
    opt2.step()  # creates the accumulators
    one = jax.jit(lambda p, g, st, lr: adam_update(p, g, st, lr, 0.9, 0.999, 1e-8, False))
    read = trace_state.read

    def naive():
        lr = read(opt2._lr_tensor()).astype(jnp.float32)
        for p in params2:
            st = opt2._state_lists[p.name]
            new_p, new_st = one(read(p), read(p.grad), [read(t) for t in st], lr)
            p._set_value(new_p)
            for t, a in zip(st, new_st):
                t._set_value(a)
        jax.block_until_ready(params2[-1]._value)

    # raw optax on a list of arrays (no Paddle bookkeeping), for reference
    tx = optax.adam(1e-3)
    arrays = [p._value for p in params]
    grads = [p.grad._value for p in params]
    ox = {"p": list(arrays), "s": tx.init(arrays)}

    @jax.jit
    def optax_step(ps, gs, s):
        upd, s = tx.update(gs, s, ps)
        return optax.apply_updates(ps, upd), s

    def with_optax():
        ox["p"], ox["s"] = optax_step(ox["p"], grads, ox["s"])
        jax.block_until_ready(ox["p"][-1])

    t_fused, t_naive, t_optax = _best(fused), _best(naive), _best(with_optax)
    print(f"Adam step, {n_params} params ({dim}x{dim} and {dim}), {jax.devices()[0].platform}:")
    print(f"  fused (1 compiled call)  : {t_fused:8.1f} us")
    print(f"  naive (1 call per param) : {t_naive:8.1f} us  ({t_naive / t_fused:.2f}x the fused)")
    print(f"  raw optax, no bookkeeping: {t_optax:8.1f} us")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
