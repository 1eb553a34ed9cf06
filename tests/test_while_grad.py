"""``dy2static/while_grad.py``: the backward of a while loop whose trip count is known only at
run time (checkpoints every ``ceil(n / CHECKPOINTS)`` iterations, recomputation inside each
segment) equals the gradient of the same loop unrolled in Python, for trip counts around the
checkpoint count and its multiples, with an integer counter in the carry."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from paddle_compat.jit.dy2static.while_grad import CHECKPOINTS, while_with_grad

K = CHECKPOINTS
TRIPS = [0, 1, 2, 7, K - 1, K, K + 1, 2 * K, 2 * K + 1, 3 * K + 5]


def _body(p, c):
    h, k = c
    return jnp.tanh(h @ p[0] + p[1]), k + 1


def _looped(p, h, n):
    out = while_with_grad(lambda p, c: c[1] < n, _body, p, (h, jnp.int32(0)))
    return jnp.sum(out[0] ** 2)


def _unrolled(p, h, n):
    for _ in range(n):
        h = jnp.tanh(h @ p[0] + p[1])
    return jnp.sum(h**2)


_GRAD = jax.jit(jax.grad(_looped, argnums=(0, 1)))  # one program for every trip count


@pytest.mark.parametrize("n", TRIPS)
def test_gradient_equals_the_unrolled_loop(n):
    rs = np.random.RandomState(n)
    p = [jnp.asarray(rs.standard_normal((4, 4)) * 0.5, jnp.float32), jnp.zeros(4, jnp.float32)]
    p[1] = p[1] + 0.1
    h = jnp.asarray(rs.standard_normal((2, 4)), jnp.float32)
    got = jax.tree_util.tree_leaves(_GRAD(p, h, n))
    want = jax.tree_util.tree_leaves(jax.grad(_unrolled, argnums=(0, 1))(p, h, n))
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-5, atol=1e-6)
