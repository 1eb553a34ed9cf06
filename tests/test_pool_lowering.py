"""Pooling over windows that do not overlap runs tap by tap (nn/functional/_pooling.py: a max of
strided windows with a first-maximum gradient, a sum of them for averages) and gives what
``lax.reduce_window`` gives, values and gradients, for every geometry it takes; overlapping or
large windows keep reduce_window. (Tied maxima are checked against Paddle by the goldens.)"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import paddle
from paddle_compat.nn.functional import _pooling


def _avg(
    x,
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode=False,
    exclusive=True,
    divisor_override=None,
    data_format=None,
):
    nsp = x.ndim - 2
    fmt = data_format or ("NCL", "NCHW", "NCDHW")[nsp - 1]
    args = (ceil_mode, exclusive, divisor_override, fmt, nsp)
    return _pooling._avg_pool(x, kernel_size, stride, padding, *args)


def _max(x, kernel_size, stride=None, padding=0, ceil_mode=False, data_format=None):
    nsp = x.ndim - 2
    fmt = data_format or ("NCL", "NCHW", "NCDHW")[nsp - 1]
    return _pooling._max_pool(x, kernel_size, stride, padding, False, ceil_mode, fmt, nsp)


# (id, pool function, x shape, kwargs, tap by tap?)
CASES = [
    ("avg 2x2", _avg, (2, 3, 8, 8), {"kernel_size": 2}, True),
    ("avg 2x2 odd map", _avg, (1, 2, 7, 9), {"kernel_size": 2}, True),
    ("avg 2x2 ceil", _avg, (1, 2, 7, 7), {"kernel_size": 2, "ceil_mode": True}, True),
    (
        "avg 2x2 ceil, padding counted",
        _avg,
        (1, 2, 7, 7),
        {"kernel_size": 2, "ceil_mode": True, "exclusive": False},
        True,
    ),
    (
        "avg 3x3 stride 3 pad 1",
        _avg,
        (1, 2, 8, 8),
        {"kernel_size": 3, "stride": 3, "padding": 1},
        True,
    ),
    ("avg stride > kernel", _avg, (1, 2, 9, 9), {"kernel_size": 2, "stride": 3}, True),
    (
        "avg 2x3 stride 2x4",
        _avg,
        (2, 1, 8, 12),
        {"kernel_size": [2, 3], "stride": [2, 4]},
        True,
    ),
    ("avg divisor", _avg, (1, 2, 6, 6), {"kernel_size": 2, "divisor_override": 3}, True),
    ("avg NHWC", _avg, (2, 6, 6, 3), {"kernel_size": 2, "data_format": "NHWC"}, True),
    (
        "avg SAME",
        _avg,
        (1, 2, 7, 7),
        {"kernel_size": 2, "stride": 2, "padding": "SAME"},
        True,
    ),
    ("avg 1-D", _avg, (2, 3, 11), {"kernel_size": 3, "stride": 3, "padding": 1}, True),
    ("avg 3-D", _avg, (1, 2, 4, 6, 6), {"kernel_size": 2}, True),
    (
        "avg overlapping (reduce_window)",
        _avg,
        (1, 2, 8, 8),
        {"kernel_size": 3, "stride": 2},
        False,
    ),
    ("avg 6x6 (reduce_window)", _avg, (1, 2, 12, 12), {"kernel_size": 6}, False),
    ("max 2x2", _max, (2, 3, 8, 8), {"kernel_size": 2}, True),
    (
        "max 2x2 ceil, pad 1",
        _max,
        (1, 2, 7, 7),
        {"kernel_size": 2, "ceil_mode": True, "padding": 1},
        True,
    ),
    ("max NHWC", _max, (2, 6, 6, 3), {"kernel_size": 2, "data_format": "NHWC"}, True),
    ("max 1-D", _max, (2, 3, 10), {"kernel_size": 2}, True),
    ("max 3-D", _max, (1, 2, 4, 6, 6), {"kernel_size": 2}, True),
    (
        "max overlapping (reduce_window)",
        _max,
        (1, 2, 8, 8),
        {"kernel_size": 3, "stride": 2, "padding": 1},
        False,
    ),
]


def _run(fn, shape, kwargs):
    """The pure pooling function (no cached kernel) and its VJP on random data."""
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal(shape).astype("float32"))
    y, pullback = jax.vjp(lambda x: fn(x, **kwargs), x)
    (dx,) = pullback(jnp.asarray(rng.standard_normal(y.shape).astype("float32")))
    return np.asarray(y), np.asarray(dx)


@pytest.mark.parametrize("fn,shape,kwargs,taps", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_tap_by_tap_pooling_equals_reduce_window(monkeypatch, fn, shape, kwargs, taps):
    k = kwargs["kernel_size"]
    nsp = len(shape) - 2
    k = [k] * nsp if isinstance(k, int) else k
    s = kwargs.get("stride", k)
    s = [s] * nsp if isinstance(s, int) else s
    assert _pooling._disjoint_taps(k, s) == taps
    y, dx = _run(fn, shape, kwargs)
    monkeypatch.setattr(_pooling, "_MAX_TAPS", 0)  # every window through reduce_window
    y_ref, dx_ref = _run(fn, shape, kwargs)
    np.testing.assert_allclose(y, y_ref, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(dx, dx_ref, rtol=1e-6, atol=1e-6)


def test_pool_layers_take_the_taps_route():
    # the public layers reach the same functions: AvgPool2D(2) matches the pure function
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((2, 3, 6, 6)).astype("float32"))
    for layer, fn in ((paddle.nn.AvgPool2D(2), _avg), (paddle.nn.MaxPool2D(2), _max)):
        np.testing.assert_array_equal(layer(x).numpy(), np.asarray(fn(jnp.asarray(x.numpy()), 2)))


def _adaptive_reference(x, out):
    """Paddle's adaptive average: bin i of n -> o spans floor(i n / o) .. ceil((i + 1) n / o)."""
    spatial = x.shape[2:]
    cells = []
    for pos in np.ndindex(*out):
        window = [slice(i * n // o, -(-(i + 1) * n // o)) for i, n, o in zip(pos, spatial, out)]
        cells.append(
            x[(Ellipsis, *window)].sum(axis=tuple(range(2, x.ndim)))
            / x[(Ellipsis, *window)][0, 0].size
        )
    return jnp.stack(cells, axis=-1).reshape(*x.shape[:2], *out)


# (id, x shape, output size): equal bins of up to 4 cells sum tap by tap, a global pool over
# whole axes, larger bins as reshaped blocks; unequal bins take the per-axis averaging matrices
ADAPTIVE = [
    ("global 7x7", (2, 3, 7, 7), [1, 1]),
    ("8x8 -> 4x4 (taps)", (1, 2, 8, 8), [4, 4]),
    ("12x12 -> 2x2 (blocks)", (1, 2, 12, 12), [2, 2]),
    ("8x9 -> 2x3 (4x3 bins: blocks)", (1, 2, 8, 9), [2, 3]),
    ("16x16 -> 4x4 (4x4 bins: blocks)", (2, 3, 16, 16), [4, 4]),
    ("4x8 -> 4x2 (1x4 bins: taps)", (1, 2, 4, 8), [4, 2]),
    ("7x11 -> 3x5 (unequal)", (1, 2, 7, 11), [3, 5]),
    ("1-D 10 -> 5", (2, 3, 10), [5]),
    ("3-D global", (1, 2, 3, 4, 5), [1, 1, 1]),
]


@pytest.mark.parametrize("shape,out", [c[1:] for c in ADAPTIVE], ids=[c[0] for c in ADAPTIVE])
def test_adaptive_average_pooling_equals_bin_means(shape, out):
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal(shape).astype("float32"))
    g = jnp.asarray(rng.standard_normal((*shape[:2], *out)).astype("float32"))
    y, pullback = jax.vjp(lambda x: _pooling._adaptive_avg(x, out, len(out), False), x)
    y_ref, pullback_ref = jax.vjp(lambda x: _adaptive_reference(x, out), x)
    np.testing.assert_allclose(y, y_ref, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(pullback(g)[0], pullback_ref(g)[0], rtol=1e-6, atol=1e-6)
