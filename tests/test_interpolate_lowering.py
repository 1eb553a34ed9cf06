"""Resizes whose source indices repeat with a period read strided slices in place of a gather
(nn/functional/_interpolate.py ``_take``): the same values as ``jnp.take`` bit for bit (signed
zeros, inf and nan included) and the same gradients, for the index arrays that nearest, linear
and cubic resizing build; the periods it declines keep the gather. (The resized values
themselves are checked against Paddle by the goldens.)"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from paddle_compat.nn.functional import _interpolate as interp


def _nearest_index(n_in, n_out, align_corners=False):
    r = interp._ratio(n_in, n_out, None, align_corners)
    k = np.arange(n_out, dtype=np.float32)
    return np.minimum((r * k).astype(np.int64), n_in - 1)


def _linear_index(n_in, n_out, align_corners=False, second=False):
    r = interp._ratio(n_in, n_out, None, align_corners)
    k = np.arange(n_out, dtype=np.float32)
    half = np.maximum(r * (k + np.float32(0.5)) - np.float32(0.5), np.float32(0))
    src = r * k if align_corners else half
    i0 = np.minimum(src.astype(np.int64), n_in - 1)
    return np.minimum(i0 + 1, n_in - 1) if second else i0


# (id, index array over a source of n_in, n_in, max_period, read as slices?)
CASES = [
    ("nearest 2x up", _nearest_index(6, 12), 6, 8, True),
    ("nearest 3x up", _nearest_index(5, 15), 5, 8, True),
    ("nearest 6 -> 9", _nearest_index(6, 9), 6, 8, True),
    ("nearest 2x down", _nearest_index(12, 6), 12, 8, True),
    ("nearest 7 -> 3", _nearest_index(7, 3), 7, 8, True),
    ("nearest 7 -> 64 (period 64)", _nearest_index(7, 64), 7, 8, False),
    ("nearest, align_corners ratio", _nearest_index(6, 12, True), 6, 8, True),
    ("linear 2x down, first tap", _linear_index(12, 6), 12, 1, True),
    ("linear 2x down, second tap", _linear_index(12, 6, second=True), 12, 1, True),
    ("linear 3x down", _linear_index(9, 3), 9, 1, True),
    ("linear 2x up keeps the gather", _linear_index(6, 12), 6, 1, False),
    ("linear 2x up as phases", _linear_index(6, 12), 6, 8, True),
    ("linear 2x up, second tap (clamped edge)", _linear_index(6, 12, second=True), 6, 8, True),
    ("linear align_corners 5 -> 9 (period 9)", _linear_index(5, 9, True), 5, 8, False),
    ("one output", np.array([3]), 7, 8, False),
    ("one source", np.zeros(4, np.int64), 1, 8, True),
]


def _source(n_in):
    x = np.random.default_rng(n_in).standard_normal((2, n_in, 3)).astype(np.float32)
    x[0, 0, 0] = -0.0  # signed zeros, inf and nan travel as they are
    x[1, -1, 1] = np.inf
    x[0, n_in // 2, 2] = np.nan
    return jnp.asarray(x)


@pytest.mark.parametrize(
    "idx, n_in, max_period, sliced", [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_take_matches_gather(idx, n_in, max_period, sliced):
    x = _source(n_in)
    got = interp._take(x, idx, 1, max_period)
    want = jnp.take(x, idx, axis=1)
    assert got.shape == want.shape
    g, w = np.asarray(got), np.asarray(want)
    np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
    text = jax.jit(lambda v: interp._take(v, idx, 1, max_period)).lower(x).as_text()
    assert ("gather" not in text) == sliced


@pytest.mark.parametrize(
    "idx, n_in, max_period", [c[1:4] for c in CASES], ids=[c[0] for c in CASES]
)
def test_take_gradient_matches_gather(idx, n_in, max_period):
    x = jnp.asarray(np.random.default_rng(1).standard_normal((2, n_in, 3)).astype(np.float32))
    ct = jnp.asarray(np.random.default_rng(2).standard_normal((2, len(idx), 3)).astype(np.float32))
    got = jax.vjp(lambda v: interp._take(v, idx, 1, max_period), x)[1](ct)[0]
    want = jax.vjp(lambda v: jnp.take(v, idx, axis=1), x)[1](ct)[0]
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6, atol=1e-6)
