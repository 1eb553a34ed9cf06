"""The host samplers' vectorized paths against plain per-element loops that follow Paddle's CPU
kernels step by step (and against values recorded from real Paddle 3.3.1): same numbers and the
same engine position afterwards, on many random shapes, parameters and seeds."""

from __future__ import annotations

import numpy as np
import pytest

from paddle_compat._core import host_discrete, host_gamma, host_random
from paddle_compat._core.mt19937 import MT19937_64


def _multinomial_loop(engine, probs, num_samples, replacement):
    """Paddle's CPU multinomial kernel, one row and one sample at a time."""
    st = np.float64 if probs.dtype == np.float64 else np.float32
    rows = np.asarray(probs, st).reshape(-1, probs.shape[-1])
    k = rows.shape[1]
    out = np.empty((rows.shape[0], num_samples), np.int64)
    for i, row in enumerate(rows):
        cum = np.cumsum(row, dtype=st)
        cum = cum / cum[-1]
        for s in range(num_samples):
            u = host_random.uniform(engine, 1, 0.0, 1.0, st)[0]
            cum[-1] = 1
            left, right = 0, k
            while right > left:
                mid = left + (right - left) // 2
                if cum[mid] < u:
                    left = mid + 1
                else:
                    right = mid
            out[i, s] = left
            if not replacement and s < num_samples - 1:
                share = cum[left] - (cum[left - 1] if left else st(0))
                cum = np.where(np.arange(k) >= left, cum - share, cum) / (st(1) - share)
    return out.reshape(probs.shape[:-1] + (num_samples,))


def _random_probs(rng):
    shape = tuple(int(v) for v in rng.integers(1, 5, rng.integers(0, 3))) + (
        int(rng.integers(1, 60)),
    )
    p = rng.random(shape) ** rng.choice([1, 4, 30])
    p[rng.random(shape) < rng.choice([0.0, 0.3])] = 0
    p[..., rng.integers(shape[-1])] += 0.01  # every row has a positive weight
    if rng.random() < 0.1:
        p[..., 0] = np.inf  # the kernel's nan running sums
    return p.astype(rng.choice(["float32", "float64"]))


@pytest.mark.parametrize("seed", range(6))
def test_multinomial_equals_the_kernel_loop(seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        p = _random_probs(rng)
        replacement = bool(rng.integers(2))
        most = int((p > 0).sum(-1).min())
        n = int(rng.integers(1, 40)) if replacement else int(rng.integers(1, most + 1))
        engine_seed = int(rng.integers(1 << 32))
        a, b = MT19937_64(engine_seed), MT19937_64(engine_seed)
        with np.errstate(all="ignore"):
            fast = host_random.multinomial_array(a, p, n, replacement)
            loop = _multinomial_loop(b, p, n, replacement)
        np.testing.assert_array_equal(fast, loop)
        np.testing.assert_array_equal(a.draw(3), b.draw(3))


# paddle.seed(s); paddle.multinomial(p, 15, False) under Paddle 3.3.1: in float32 the share
# taken out of the running sums leaves some mass behind, so a category can come again
_PADDLE_WITHOUT_REPLACEMENT = {
    0: [5, 11, 18, 10, 4, 17, 9, 16, 3, 15, 2, 8, 5, 18, 17],
    1: [5, 18, 11, 4, 17, 16, 10, 3, 9, 2, 15, 8, 5, 11, 1],
}


@pytest.mark.parametrize("seed", sorted(_PADDLE_WITHOUT_REPLACEMENT))
def test_multinomial_without_replacement_equals_paddle(seed):
    p = ((((np.arange(1, 21) * 7919) % 13 + 1) / 13.0) ** 20).astype("float32")
    got = host_random.multinomial_array(MT19937_64(seed), p, 15, False)
    assert got.tolist() == _PADDLE_WITHOUT_REPLACEMENT[seed]


def _binomial_loop(engine, count, prob):
    """Paddle's CPU binomial kernel: every element in turn from one stream of uniforms."""
    count, prob = np.broadcast_arrays(count, prob)
    m = host_discrete._Math(prob.dtype == np.float32)
    uni = host_discrete._Uniforms(engine, prob.dtype)
    pairs = zip(count.ravel().tolist(), prob.ravel().tolist(), strict=True)
    out = [host_discrete._binomial_one(n, p, uni, m) for n, p in pairs]
    uni.close()
    return np.array(out, np.int64).reshape(prob.shape)


def _poisson_loop(engine, rates):
    """Paddle's CPU poisson kernel: every element in turn from one stream of uniforms."""
    uni = host_discrete._Uniforms(engine, np.float64)
    out = [
        (host_discrete._poisson_devroye if r >= 12 else host_discrete._poisson_product)(r, uni)
        for r in np.asarray(rates, np.float64).ravel().tolist()
    ]
    uni.close()
    return np.array(out, np.int64).reshape(np.shape(rates))


def _shared_params(rng, values):
    """An array whose elements share a few parameter values (the tables' case) or not."""
    size = int(rng.choice([1, 40, 300, 1200]))
    kinds = int(rng.choice([1, 2, 4, size]))
    chosen = rng.choice(values, kinds) * rng.random(kinds) ** rng.choice([0, 1])
    return chosen[rng.integers(0, kinds, size)]


@pytest.mark.parametrize("seed", range(4))
def test_binomial_equals_the_kernel_loop(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(12):
        dtype = rng.choice(["float32", "float64"])
        count = _shared_params(rng, [0, 1, 7, 20, 100, 1000, 3e7]).round()
        prob = rng.choice([0.0, 0.03, 0.3, 0.5, 0.8, 0.99, 1.0], len(count))
        if rng.random() < 0.5:
            prob = np.full(len(count), prob[0])
        count, prob = count.astype(dtype), prob.astype(dtype)
        engine_seed = int(rng.integers(1 << 32))
        a, b = MT19937_64(engine_seed), MT19937_64(engine_seed)
        fast = host_discrete.binomial_array(a, count, prob)
        np.testing.assert_array_equal(fast, _binomial_loop(b, count, prob))
        np.testing.assert_array_equal(a.draw(3), b.draw(3))


@pytest.mark.parametrize("seed", range(4))
def test_poisson_equals_the_kernel_loop(seed):
    rng = np.random.default_rng(200 + seed)
    for _ in range(12):
        rates = _shared_params(rng, [0.0, 0.01, 0.7, 4.0, 11.99, 12.0, 60.0]).astype(
            rng.choice(["float32", "float64"])
        )
        engine_seed = int(rng.integers(1 << 32))
        a, b = MT19937_64(engine_seed), MT19937_64(engine_seed)
        np.testing.assert_array_equal(
            host_discrete.poisson_array(a, rates), _poisson_loop(b, rates)
        )
        np.testing.assert_array_equal(a.draw(3), b.draw(3))


def _gamma_loop(engine, alpha):
    """Paddle's CPU standard_gamma kernel (Marsaglia and Tsang), one element and one draw at a
    time: fresh polar-method normals, libm logs and powers, arithmetic in alpha's type."""
    st = np.float64 if alpha.dtype == np.float64 else np.float32
    one, out = st(1), []

    def uniform():
        return host_random.uniform(engine, 1, 0.0, 1.0, st)[0]

    def normal():
        while True:
            x, y = st(2) * uniform() - st(1), st(2) * uniform() - st(1)
            r2 = x * x + y * y
            if r2 <= 1 and r2 != 0:
                return y * np.sqrt(st(-2) * host_random.log(np.array([r2]))[0] / r2)

    with np.errstate(all="ignore"):
        for a in np.asarray(alpha, st).ravel():
            if a == 0:
                out.append(st(0))
                continue
            scale = one
            if a < one:
                base = np.array([one - uniform()], st)
                scale = host_gamma._pow(base, np.array([one / a], st), st)[0]
                a = a + one
            d = a - st(np.float32(1) / np.float32(3))
            c = one / np.sqrt(st(9) * d)
            while True:
                while True:
                    x = normal()
                    y = one + c * x
                    if y > 0:
                        break
                v = y * y * y
                u = one - uniform()
                log_u = host_random.log(np.array([u], st))[0]
                if u < one - st(np.float32(0.0331)) * (x * x) * (x * x) or host_gamma._log_test(
                    x, log_u, d, c, st
                ):
                    out.append(scale * d * v)
                    break
    tiny = np.finfo(st).tiny
    res = np.array(out, st)
    return np.where(res > tiny, res, tiny).reshape(alpha.shape)


@pytest.mark.parametrize("seed", range(3))
def test_standard_gamma_equals_the_kernel_loop(seed):
    rng = np.random.default_rng(300 + seed)
    for _ in range(6):
        size = int(rng.choice([1, 20, 200]))
        alpha = rng.choice([0.0, 1e-3, 0.3, 0.9, 1.0, 2.5, 40.0], size) * rng.random(size) ** (
            rng.choice([0, 1])
        )
        alpha = alpha.astype(rng.choice(["float32", "float64"]))
        engine_seed = int(rng.integers(1 << 32))
        a, b = MT19937_64(engine_seed), MT19937_64(engine_seed)
        fast = host_gamma.standard_gamma_array(a, alpha)
        np.testing.assert_array_equal(fast, _gamma_loop(b, alpha))
        np.testing.assert_array_equal(a.draw(3), b.draw(3))
