"""paddle.autograd beyond the goldens (tests/cases/autograd_api.py): Jacobian laziness and
values against jax.jacfwd/hessian, the public namespace, saved-tensor hooks' scope, and the
PyLayer/core-tape interplay (no_grad_vars cuts, None gradients, create_graph through a PyLayer).
Tables of cases."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from paddle.autograd import PyLayer

import paddle

PADDLE_AUTOGRAD_NAMES = {  # dir(paddle.autograd) of Paddle 3.3.1, minus its submodules
    "Function",
    "PyLayer",
    "PyLayerContext",
    "backward",
    "enable_grad",
    "grad",
    "hessian",
    "is_grad_enabled",
    "jacobian",
    "no_grad",
    "saved_tensors_hooks",
    "set_grad_enabled",
}
PADDLE_ALL = ["jacobian", "hessian", "backward", "PyLayer", "Function", "PyLayerContext",
              "saved_tensors_hooks"]  # fmt: skip


def _x(a, sg=False):
    return paddle.to_tensor(np.asarray(a, "float32"), stop_gradient=sg)


def test_namespace():
    assert paddle.autograd.__all__ == PADDLE_ALL
    missing = [n for n in PADDLE_AUTOGRAD_NAMES if not hasattr(paddle.autograd, n)]
    assert not missing
    assert paddle.autograd.no_grad is paddle.no_grad and paddle.autograd.grad is paddle.grad


F_CASES = [  # (name, paddle fn, jax fn, x, batch_axis)
    ("cube", lambda x: x * x * x, lambda x: x**3, [0.5, -1.0, 2.0], None),
    (
        "tanh_mix",
        lambda x: paddle.tanh(x) * x.sum(),
        lambda x: jnp.tanh(x) * x.sum(),
        [0.1, 0.2, -0.3, 0.4],
        None,
    ),  # fmt: skip
    (
        "scalar_y",
        lambda x: (paddle.exp(x) * x).sum(),
        lambda x: (jnp.exp(x) * x).sum(),
        [0.1, 0.2],
        None,
    ),  # fmt: skip
    (
        "batched",
        lambda x: paddle.sin(x) * x,
        lambda x: jnp.sin(x) * x,
        [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
        0,
    ),  # fmt: skip
]


@pytest.mark.parametrize("name,fp,fj,x,batch_axis", F_CASES, ids=[c[0] for c in F_CASES])
def test_jacobian_matches_jax(name, fp, fj, x, batch_axis):
    xs = _x(x)
    J = paddle.autograd.jacobian(fp(xs), xs, batch_axis=batch_axis)
    xj = jnp.asarray(np.asarray(x, "float32"))
    if batch_axis is None:
        want = jax.jacfwd(fj)(xj)
    else:  # per-sample Jacobians
        want = jax.vmap(jax.jacfwd(fj))(xj)
    np.testing.assert_allclose(J[:].numpy(), np.asarray(want), rtol=1e-5, atol=1e-6)
    assert J.shape == list(want.shape)


H_CASES = [
    ("cube", lambda x: (x * x * x).sum(), lambda x: (x**3).sum(), [0.5, -1.0, 2.0]),
    (
        "log_softmax",
        lambda x: paddle.nn.functional.log_softmax(x)[0],
        lambda x: jax.nn.log_softmax(x)[0],
        [0.1, 0.7, -0.3],
    ),  # fmt: skip
]


@pytest.mark.parametrize("name,fp,fj,x", H_CASES, ids=[c[0] for c in H_CASES])
def test_hessian_matches_jax(name, fp, fj, x):
    xs = _x(x)
    H = paddle.autograd.hessian(fp(xs), xs)
    want = jax.hessian(fj)(jnp.asarray(np.asarray(x, "float32")))
    np.testing.assert_allclose(H[:].numpy(), np.asarray(want), rtol=1e-5, atol=1e-6)


def test_jacobian_is_lazy_and_caches_rows():
    calls = []
    real = paddle.autograd._jacobian._ag.grad

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    x = _x([1.0, 2.0, 3.0, 4.0])
    J = paddle.autograd.jacobian(x * x, x)
    paddle.autograd._jacobian._ag.grad = counting
    try:
        assert not calls  # building it computes nothing
        J[1]
        assert len(calls) == 1  # one row
        J[0:2]
        assert len(calls) == 2  # row 1 is cached
        J[:]
        assert len(calls) == 4
    finally:
        paddle.autograd._jacobian._ag.grad = real


def test_hooks_scope_and_nesting():
    log = []
    x, y = _x([1.0, 2.0]), _x([3.0, 4.0])
    outer = paddle.autograd.saved_tensors_hooks(lambda t: log.append("o") or t, lambda t: t)
    inner = paddle.autograd.saved_tensors_hooks(lambda t: log.append("i") or t, lambda t: t)
    with outer:
        a = x * y
        with inner:
            b = a * y
        c = b * x
    d = c * y  # outside: not packed
    d.sum().backward()
    assert log == ["o", "o", "i", "i", "o", "o"]
    np.testing.assert_allclose(x.grad.numpy(), (2 * np.array([1.0, 2]) * [27, 64]))


def test_unpack_must_return_tensor():
    x, y = _x([1.0]), _x([2.0])
    with paddle.autograd.saved_tensors_hooks(lambda t: None, lambda t: None):
        z = x * y
    with pytest.raises(ValueError, match="unpack_hook"):
        z.sum().backward()


class _Double(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensor()
        return 2 * x * g


class _NoneGrad(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return None


TAPE_CASES = [  # (name, fn(x) -> grads of x, expected)
    # a PyLayer backward made differentiable by create_graph: d/dx of 2*x*1 summed = 2
    (
        "create_graph_through_pylayer",
        lambda x: paddle.grad(
            paddle.grad(_Double.apply(x).sum(), x, create_graph=True)[0].sum(), x
        )[0].numpy(),
        [2.0, 2.0],
    ),  # fmt: skip
    # None from a PyLayer: nothing reaches x through it, the other path still counts
    (
        "none_grad_other_path",
        lambda x: paddle.grad((_NoneGrad.apply(x * 1) + x * 3).sum(), x)[0].numpy(),
        [3.0, 3.0],
    ),  # fmt: skip
    (
        "none_grad_only_path",
        lambda x: paddle.grad(_NoneGrad.apply(x * 1).sum(), x, allow_unused=True)[0],
        None,
    ),
]


@pytest.mark.parametrize("name,fn,want", TAPE_CASES, ids=[c[0] for c in TAPE_CASES])
def test_pylayer_on_the_tape(name, fn, want):
    got = fn(_x([1.0, 2.0]))
    if want is None:
        assert got is None
    else:
        np.testing.assert_allclose(got, want)


def test_none_grad_leaves_leaf_grad_unset():
    x = _x([1.0, 2.0])
    _NoneGrad.apply(x * 1).sum().backward()
    assert x.grad is None


def test_no_grad_vars_cut_a_shared_subgraph():
    x = _x([1.0, 2.0])
    m = x * x
    (g,) = paddle.grad((m * 3).sum() + (x * 5).sum(), x, no_grad_vars=[m])
    np.testing.assert_allclose(g.numpy(), [5.0, 5.0])


def test_pylayer_under_to_static():
    @paddle.jit.to_static
    def f(x):
        return _Double.apply(x).sum()

    x = _x([1.0, 2.0])
    f(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])
