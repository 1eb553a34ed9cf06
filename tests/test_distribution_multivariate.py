"""Checks of the multivariate and count distributions that goldens cannot make: the precision
form's gradient (Paddle 3.3.1's is broken), sampling under to_static (draws from the JAX key),
and the emulated libstdc++ sort order behind LKJCholesky's cvine placement."""

from __future__ import annotations

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.distribution import (
    Binomial,
    Dirichlet,
    LKJCholesky,
    Multinomial,
    MultivariateNormal,
    Poisson,
)
from paddle_compat.distribution.lkj_cholesky import _introsort_order

COV = np.array([[2.0, 0.5, 0.1], [0.5, 1.5, 0.3], [0.1, 0.3, 1.0]])
LOC = np.array([[0.3, -1.0, 0.5], [1.2, 0.1, -0.4]])


def _log_prob_sum(precision: np.ndarray) -> float:
    d = MultivariateNormal(paddle.to_tensor(LOC[0]), precision_matrix=paddle.to_tensor(precision))
    return float(d.log_prob(paddle.to_tensor(LOC)).sum())


def test_precision_gradient_is_the_symmetrized_finite_difference():
    # the factor reads one triangle of P, so the plain derivative is one-sided; like the
    # covariance form (Paddle's cholesky gradient), the gradient is its symmetric part
    prec = np.linalg.inv(COV)
    p = paddle.to_tensor(prec, stop_gradient=False)
    d = MultivariateNormal(paddle.to_tensor(LOC[0]), precision_matrix=p)
    d.log_prob(paddle.to_tensor(LOC)).sum().backward()
    fd = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            e = np.zeros((3, 3))
            e[i, j] = 1e-6
            fd[i, j] = (_log_prob_sum(prec + e) - _log_prob_sum(prec - e)) / 2e-6
    np.testing.assert_allclose(p.grad.numpy(), (fd + fd.T) / 2, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize(
    "make, shape, dtype",
    [
        (lambda: Dirichlet(paddle.to_tensor([0.5, 2.0, 3.0])), [4, 3], "float32"),
        (lambda: Binomial(10, paddle.to_tensor([0.2, 0.9])), [4, 2], "float32"),
        (lambda: Poisson(paddle.to_tensor([1.5, 30.0])), [4, 2], "float32"),
        (lambda: Multinomial(5, paddle.to_tensor([0.2, 0.8])), [4, 2], "float32"),
        (lambda: LKJCholesky(3, 1.0, "cvine"), [4, 3, 3], "float32"),
    ],
)
def test_sampling_under_to_static(make, shape, dtype):
    d = make()

    @paddle.jit.to_static
    def draw():
        return d.sample([4])

    first, second = draw(), draw()
    assert list(first.shape) == shape and str(first.dtype).endswith(dtype)
    assert not np.array_equal(first.numpy(), second.numpy())  # the key advances


def test_dirichlet_samples_under_to_static_lie_on_the_simplex():
    d = Dirichlet(paddle.to_tensor([0.5, 2.0, 3.0]))
    out = paddle.jit.to_static(lambda: d.sample([50]))()
    np.testing.assert_allclose(out.numpy().sum(-1), 1.0, rtol=1e-5)
    assert (out.numpy() > 0).all()


@pytest.mark.parametrize("batch, count", [(1, 3), (5, 1), (7, 10), (40, 6), (200, 3)])
def test_introsort_order_sorts_the_batch_keys(batch, count):
    keys = [t % batch for t in range(batch * count)]
    order = _introsort_order(keys)
    assert sorted(order) == list(range(len(keys)))
    assert [keys[i] for i in order] == sorted(keys)
