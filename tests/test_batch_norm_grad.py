"""Batch norm's closed-form gradient (nn/functional/_norm.py, a custom VJP from the batch
statistics, as Paddle's kernel computes it) equals JAX's derivative of the forward graph: first
and second order, channels first and last, with and without scale and shift, for the y and
statistics outputs, in float32 and bfloat16."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from paddle_compat.nn.functional import _norm

# (id, x shape, channel axis, affine, dtype)
CASES = [
    ("NCHW", (4, 3, 5, 5), 1, True, "float32"),
    ("NHWC", (4, 5, 5, 3), 3, True, "float32"),
    ("NC", (6, 4), 1, True, "float32"),
    ("NCDHW no affine", (2, 3, 2, 3, 3), 1, False, "float32"),
    ("NCHW bfloat16", (4, 3, 5, 5), 1, True, "bfloat16"),
]


def _loss(fn, ch, g, affine):
    def loss(x, w, b):
        y, mean, var = fn(x, w if affine else None, b if affine else None, 1e-5, ch)
        return (y.astype(jnp.float32) * g).sum() + 0.3 * mean.sum() + 0.7 * var.sum()

    return loss


@pytest.mark.parametrize("shape,ch,affine,dtype", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_closed_form_gradient_equals_autodiff(shape, ch, affine, dtype):
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal(shape).astype("float32")).astype(dtype)
    w = jnp.asarray(rng.standard_normal(shape[ch]).astype("float32"))
    b = jnp.asarray(rng.standard_normal(shape[ch]).astype("float32"))
    g = jnp.asarray(rng.standard_normal(shape).astype("float32"))
    ours = _loss(_norm._bn_batch_stats, ch, g, affine)
    plain = _loss(_norm._bn_forward, ch, g, affine)
    argnums = (0, 1, 2) if affine else (0,)
    tol = 1e-5 if dtype == "float32" else 2e-2
    for a, e in zip(jax.grad(ours, argnums)(x, w, b), jax.grad(plain, argnums)(x, w, b)):
        assert a.dtype == e.dtype
        np.testing.assert_allclose(
            np.asarray(a, np.float32), np.asarray(e, np.float32), rtol=tol, atol=tol
        )
    if dtype == "float32":  # second order: the gradient of the input gradient's square sum
        second = [
            jax.grad(lambda x, w, b, f=f: (jax.grad(f)(x, w, b) ** 2).sum(), argnums)(x, w, b)
            for f in (ours, plain)
        ]
        for a, e in zip(*second):
            np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-5)
