"""Tensor basics: creation dtypes, promotion, arithmetic, reductions, autograd."""

import numpy as np
from _util import expect_error, randn

import paddle


def case_creation_dtypes():
    return [
        paddle.to_tensor([1, 2]),
        paddle.to_tensor([1.5, 2]),
        paddle.to_tensor(True),
        paddle.to_tensor(np.array([1.0, 2.0])),
        paddle.full([2], 1),
        paddle.full([2], True),
        paddle.arange(5),
        paddle.arange(0, 1, 0.25),
        paddle.linspace(0, 1, 5),
        paddle.eye(2, 3),
        paddle.zeros([2, 0]),
        paddle.ones([], dtype="int32"),
    ]


def case_promotion():
    i = paddle.to_tensor([1, 2, 3])
    f = paddle.to_tensor([0.5, 1.5, 2.5])
    h = paddle.to_tensor([1, 2, 3], dtype="float16")
    return [
        i + 1,
        i + 1.5,
        i / 2,
        i * 2.5,
        f + 1,
        f * h,
        2 - f,
        3 / f,
        i // 2,
        i % 2,
        f**2,
        2**f,
        -f,
        abs(-f),
        i == 2,
        f > 1.0,
    ]


def case_promotion_0d():
    """A 0-D Tensor operand: across kinds the higher kind's dtype, within a kind the N-D
    operand's (floor_divide and two 0-D operands: the wider)."""
    pairs = [
        ("int32", [2], "float64", []),
        ("float32", [2], "float64", []),
        ("int32", [], "int64", []),
        ("float64", [], "float32", [2]),
        ("int64", [2], "int32", []),
        ("bool", [2], "int32", []),
        ("float16", [], "float32", []),
    ]
    ops = [paddle.add, paddle.subtract, paddle.multiply, paddle.divide, paddle.floor_divide]
    ops += [paddle.remainder, paddle.pow, paddle.equal, paddle.less_than, paddle.copysign]
    return [
        str(op(paddle.ones(sa, a), paddle.ones(sb, b)).dtype)
        for op in ops
        for a, sa, b, sb in pairs
    ]


def case_promotion_errors():
    i32 = paddle.ones([2], dtype="int32")
    return [
        expect_error(lambda: i32 + paddle.ones([2])),
        expect_error(lambda: i32 + paddle.ones([2], dtype="int64")),
        expect_error(lambda: paddle.ones([2, 3]) + paddle.ones([4, 3])),
        expect_error(lambda: paddle.matmul(paddle.ones([2, 3]), paddle.ones([4, 3]))),
    ]


def case_unary_and_reductions():
    x = paddle.to_tensor(randn(3, 4))
    i = paddle.to_tensor([[1, 2], [3, 4]], dtype="int32")
    return [
        paddle.exp(x),
        paddle.tanh(x),
        paddle.sqrt(paddle.abs(x)),
        x.sum(),
        x.sum(axis=1),
        x.mean(axis=[0, 1], keepdim=True),
        x.max(axis=0),
        x.min(),
        x.argmax(axis=1),
        paddle.logsumexp(x, axis=1),
        x.std(),
        x.var(axis=0, unbiased=False),
        i.sum(),
        i.sum(axis=0),
        paddle.cumsum(x, axis=1),
        paddle.round(paddle.to_tensor([0.5, 1.5, -0.5])),
    ]


def case_autograd_basic():
    x = paddle.to_tensor(randn(3, 4), stop_gradient=False)
    w = paddle.to_tensor(randn(4, 2, seed=1), stop_gradient=False)
    y = paddle.matmul(x, w).tanh().sum()
    y.backward()
    return [y, x.grad, w.grad]


def case_grad_accumulation():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    for _ in range(3):
        (x * x).sum().backward()
    return x.grad


def case_grad_accumulates_in_place():
    # a .grad taken before another backward (or a clear_grad) shows the new values
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    (x * x).sum().backward()
    g = x.grad
    (x * 3).sum().backward()
    after_second = g.numpy().copy()
    x.clear_grad()
    return [after_second, g.numpy(), x.grad]


def case_paddle_grad_create_graph():
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = (x**3).sum()
    (g,) = paddle.grad(y, x, create_graph=True)
    (g2,) = paddle.grad(g.sum(), x)
    return [g, g2]


def case_hooks_and_no_grad():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    x.register_hook(lambda g: g * 10)
    y = x * 3
    with paddle.no_grad():
        z = x * 2
    y.sum().backward()
    return [x.grad, z, y.stop_gradient]


def case_stop_gradient_of_outputs():
    """Differentiable ops mark every output (ints too); argmax/compare/nonzero do not."""
    x = paddle.to_tensor([[1.0, 3.0], [2.0, 0.5]], stop_gradient=False)
    outs = {
        "argmax": paddle.argmax(x, axis=1),
        "gt": x > 1,
        "topk_idx": paddle.topk(x, 1)[1],
        "cast_int": x.astype("int64"),
        "equal": paddle.equal(x, x),
        "isnan": paddle.isnan(x),
        "argsort": paddle.argsort(x),
        "floor": paddle.floor(x),
        "nonzero": paddle.nonzero(x),
        "max": paddle.max(x),
        "unique": paddle.unique(x),
        "zeros_like": paddle.zeros_like(x),
    }
    return {k: v.stop_gradient for k, v in outs.items()}


def case_retain_grads():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 3
    y.retain_grads()
    (y * y).sum().backward()
    z = x * 2
    z.retain_grads()
    (z.sum() + z.sum()).backward()  # accumulates twice into z.grad
    return [y.grad, z.grad, x.grad]
