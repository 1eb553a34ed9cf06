"""Data-dependent search ops (nonzero, masked_select, unique) raise a clear error when traced,
naming the op and a static alternative; shape-static search/linalg ops trace fine."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import paddle
from paddle_compat._core.tensor import Tensor
from paddle_compat._core.trace_state import DataDependentError


@pytest.mark.parametrize(
    "fn,name,hint",
    [
        (lambda t: paddle.nonzero(t), "paddle.nonzero", "paddle.where"),
        (lambda t: paddle.masked_select(t, t > 0), "paddle.masked_select", "paddle.where"),
        (lambda t: paddle.unique(t), "paddle.unique", "outside"),
    ],
)
def test_data_dependent_ops_raise_under_trace(fn, name, hint):
    with pytest.raises(DataDependentError, match=name) as e:
        jax.jit(lambda a: fn(Tensor(a))._value)(jnp.ones(3))
    assert hint in str(e.value)


def test_static_shape_ops_trace():
    def f(a):
        x = Tensor(a)
        v, _ = paddle.topk(x, 2)
        k, _ = paddle.kthvalue(x, 2)
        return (v.sum() + paddle.sort(x)[0] + paddle.linalg.norm(x) + k)._value

    out = jax.jit(f)(jnp.array([3.0, 1.0, 2.0, 4.0]))
    np.testing.assert_allclose(out, 7.0 + 1.0 + np.sqrt(30.0) + 2.0, rtol=1e-6)


def test_singular_checks_are_skipped_under_trace():
    out = jax.jit(lambda a: paddle.linalg.inv(Tensor(a))._value)(jnp.zeros((2, 2)))
    assert not np.isfinite(np.asarray(out)).all()
    with pytest.raises(ValueError, match="not invertible"):
        paddle.linalg.inv(paddle.zeros([2, 2]))
