"""Checks of paddle.distribution's continuous families that goldens cannot make: to_static
parity with eager, compiled sampling shapes, and the host gamma sampler's stream position."""

import numpy as np
import pytest

import paddle

D = paddle.distribution

X23 = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")
LOC = np.array([0.1, -0.2, 0.3], "float32")
SCALE = np.array([0.5, 1.5, 3.0], "float32")


def _normal(loc, scale, v):
    n = D.Normal(loc, scale)
    return n.log_prob(v), n.probs(v), n.entropy(), D.kl_divergence(n, D.Normal(loc, scale + 1.0))


def _laplace_cauchy(loc, scale, v):
    lap, cau = D.Laplace(loc, scale), D.Cauchy(loc, scale)
    return lap.log_prob(v), lap.cdf(v), lap.icdf(paddle.nn.functional.sigmoid(v)), cau.cdf(v)


def _gamma_family(loc, scale, v):
    g = D.Gamma(scale, scale + 0.5)
    pos = v.abs() + 0.1
    return (
        g.log_prob(pos),
        g.entropy(),
        D.Chi2(scale).log_prob(pos),
        D.Exponential(scale).cdf(pos),
        D.StudentT(scale + 1.0, loc, scale).log_prob(v),
    )


def _uniform(loc, scale, v):
    u = D.Uniform(loc - 1.0, loc + scale)
    return u.log_prob(v), u.probs(v), u.entropy()


@pytest.mark.parametrize("fn", [_normal, _laplace_cauchy, _gamma_family, _uniform])
def test_to_static_equals_eager(fn):
    args = [paddle.to_tensor(a) for a in (LOC, SCALE, X23)]
    eager = fn(*args)
    static = paddle.jit.to_static(fn)
    for _ in range(2):  # the first call records, the second runs the compiled function
        for e, s in zip(eager, static(*args), strict=True):
            np.testing.assert_allclose(s.numpy(), e.numpy(), rtol=1e-6, atol=1e-6)


def test_to_static_sampling_shapes():
    def draw(loc, scale):
        return (
            D.Normal(loc, scale).rsample([4]),
            D.Laplace(loc, scale).sample([4]),
            D.Gamma(scale, scale).sample([4]),
            D.StudentT(scale + 1.0, loc, scale).sample([4]),
        )

    out = paddle.jit.to_static(draw)(paddle.to_tensor(LOC), paddle.to_tensor(SCALE))
    for t in out:
        assert t.shape == [4, 3]
        assert np.isfinite(t.numpy()).all()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gamma_sampler_moments(dtype):
    """The host standard_gamma sampler: Gamma(alpha, 1) has mean and variance alpha."""
    alpha = np.repeat(np.array([0.3, 1.0, 5.0], dtype), 4000)
    paddle.seed(9)
    s = paddle.standard_gamma(paddle.to_tensor(alpha)).numpy().reshape(3, -1)
    assert s.dtype == np.dtype(dtype) and (s > 0).all()
    np.testing.assert_allclose(s.mean(1), [0.3, 1.0, 5.0], rtol=0.06)
    np.testing.assert_allclose(s.var(1), [0.3, 1.0, 5.0], rtol=0.15)
