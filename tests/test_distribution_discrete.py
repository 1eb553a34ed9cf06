"""Checks of paddle.distribution's discrete distributions that goldens cannot hold: Bernoulli's
log_prob/prob/cdf gradients (their backward crashes real Paddle 3.3.1 in broadcast_tensors_grad)
against closed forms, and to_static against eager."""

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.distribution import Bernoulli, Categorical, ContinuousBernoulli, Geometric

P = np.array([0.1, 0.3, 0.55, 0.8], "float32")
V = np.array([1.0, 0.0, 0.0, 1.0], "float32")


def _dlog_prob(p, v):
    return v / p - (1 - v) / (1 - p)


GRADS = [
    ("log_prob", lambda b, v: b.log_prob(v), lambda p, v: _dlog_prob(p, v)),
    (
        "prob",
        lambda b, v: b.prob(v),
        lambda p, v: np.where(v == 1, p, 1 - p) * _dlog_prob(p, v),
    ),
    ("cdf", lambda b, v: b.cdf(v * 0.5), lambda p, v: -np.ones_like(p)),  # 1 - p on [0, 1)
]


@pytest.mark.parametrize("name,method,expected", GRADS, ids=[g[0] for g in GRADS])
def test_bernoulli_value_method_grads(name, method, expected):
    p = paddle.to_tensor(P, stop_gradient=False)
    method(Bernoulli(p), paddle.to_tensor(V)).sum().backward()
    np.testing.assert_allclose(p.grad.numpy(), expected(P, V), rtol=1e-5)


STATIC = [
    ("categorical", lambda x: Categorical(x).log_prob(paddle.to_tensor([0, 2, 3]))),
    ("bernoulli", lambda x: Bernoulli(x).log_prob(paddle.to_tensor(V))),
    ("geometric", lambda x: Geometric(x).pmf(paddle.to_tensor([1.0, 0.0, 2.0, 3.0]))),
    ("continuous_bernoulli", lambda x: ContinuousBernoulli(x).entropy()),
]


@pytest.mark.parametrize("name,fn", STATIC, ids=[s[0] for s in STATIC])
def test_to_static_matches_eager(name, fn):
    x = paddle.to_tensor(P)
    eager = fn(x).numpy()
    static = paddle.jit.to_static(fn, full_graph=True)(x).numpy()
    np.testing.assert_allclose(static, eager, rtol=1e-6, atol=1e-7)
