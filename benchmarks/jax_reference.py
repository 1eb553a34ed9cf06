"""Hand-written JAX + optax versions of the benchmark cases (the compiled-speed target)."""

from __future__ import annotations

import json
import sys

import jax
import jax.numpy as jnp
import numpy as np
import optax

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from bench_core import timeit  # noqa: E402


def main():
    r = np.random.default_rng(0)
    a = jnp.asarray(r.standard_normal((32, 32)).astype("float32"))
    b = jnp.asarray(r.standard_normal((32, 32)).astype("float32"))

    def sync(out=None):
        if out is not None:
            jax.block_until_ready(out)

    res = {
        "eager add 32x32": timeit(lambda: a + b, sync, n=2000),
        "eager matmul 32x32": timeit(lambda: a @ b, sync, n=2000),
    }
    k1, k2 = jax.random.split(jax.random.key(0))
    params = {
        "w1": jax.random.normal(k1, (784, 256)) * 0.05,
        "b1": jnp.zeros(256),
        "w2": jax.random.normal(k2, (256, 10)) * 0.05,
        "b2": jnp.zeros(10),
    }
    params = jax.tree.map(lambda p: p.astype(jnp.float32), params)
    tx = optax.adam(1e-3)
    state = tx.init(params)
    x = jnp.asarray(r.standard_normal((64, 784)).astype("float32"))
    y = jnp.asarray(r.integers(0, 10, (64,)))

    def loss_fn(p, x, y):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    @jax.jit
    def step(p, s, x, y):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        upd, s = tx.update(g, s, p)
        return optax.apply_updates(p, upd), s, loss

    carry = [params, state]

    def run():
        carry[0], carry[1], loss = step(carry[0], carry[1], x, y)
        return loss

    res["MLP 784-256-10 b64 Adam step, to_static"] = timeit(run, sync, n=100)
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
