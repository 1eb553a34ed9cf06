"""Random ops' surface: shape, dtype, stop_gradient, value ranges and error types, for every
argument form (the values themselves are compared bit for bit in seeded_random.py; see
tests/test_random.py for the compiled path's seeding and distribution moments)."""

import numpy as np
from _util import expect_error

import paddle

INF = float("inf")


def info(t, lo=-INF, hi=INF, integral=False):
    """What a random result must share with Paddle's: shape, dtype, stop_gradient, range."""
    a = np.asarray(t.numpy())
    real = a.real if np.iscomplexobj(a) else a.astype(np.float64)
    ok = bool(((real >= lo) & (real <= hi)).all())
    if integral:
        ok = ok and bool((np.round(real) == real).all())
    if "bfloat16" in str(t.dtype):  # Paddle's numpy() gives the raw uint16 bits
        ok = None
    return {
        "shape": list(t.shape),
        "dtype": t.dtype,
        "stop_gradient": t.stop_gradient,
        "in_range": ok,
    }


def case_rand_randn():
    return [
        info(paddle.rand([2, 3]), 0, 1),
        info(paddle.rand([2, 3], "float64"), 0, 1),
        info(paddle.rand([]), 0, 1),
        info(paddle.rand([0, 3])),
        info(paddle.rand(3), 0, 1),
        info(paddle.rand([2], "float16"), 0, 1),
        info(paddle.rand([2], "bfloat16"), 0, 1),
        info(paddle.rand([paddle.to_tensor(2), 3])),
        info(paddle.rand(paddle.to_tensor([2, 3]))),
        info(paddle.rand([2], requires_grad=True)),
        info(paddle.rand([2], "complex64")),
        info(paddle.randn([2, 3])),
        info(paddle.randn([2, 3], dtype=paddle.float16)),
        info(paddle.standard_normal([2], "float64")),
        info(paddle.randn([2], "complex64")),
        info(paddle.randn((4,), requires_grad=True)),
    ]


def case_rand_errors():
    return [
        expect_error(lambda: paddle.rand([2], "int64")),
        expect_error(lambda: paddle.randn([2], "int32")),
        expect_error(lambda: paddle.rand((2, -1))),
        expect_error(lambda: paddle.rand_like(paddle.ones([2], "int32"))),
        expect_error(lambda: paddle.randn_like(paddle.ones([2], "int64"))),
        expect_error(lambda: paddle.uniform([2], "int32")),
        expect_error(lambda: paddle.randperm(3, "bool")),
    ]


def case_randint():
    x = paddle.to_tensor(np.zeros((2, 3), "float32"))
    return [
        info(paddle.randint(5), 0, 4, True),
        info(paddle.randint(2, 5, [2, 3]), 2, 4, True),
        info(paddle.randint(-3, 3, [4], "int32"), -3, 2, True),
        info(paddle.randint(high=3, shape=[2]), 0, 2, True),
        info(paddle.randint(0, 5, paddle.to_tensor([2, 3])), 0, 4, True),
        info(paddle.randint(0, 5, []), 0, 4, True),
        info(paddle.randint_like(x, 5), 0, 4, True),
        info(paddle.randint_like(x, 2, 5, dtype="int32"), 2, 4, True),
        info(paddle.randint_like(paddle.ones([2], "int32"), 5), 0, 4, True),
        expect_error(lambda: paddle.randint(5, 2)),
        expect_error(lambda: paddle.randint(3, 3)),
        expect_error(lambda: paddle.randint(0, 5, [2], "float32")),
        expect_error(lambda: paddle.randint_like(x, 5, 1)),
    ]


def case_like_uniform_normal():
    x = paddle.to_tensor(np.zeros((2, 3), "float32"))
    m = paddle.to_tensor(np.ones(3, "float32"), stop_gradient=False)
    return [
        info(paddle.rand_like(x), 0, 1),
        info(paddle.randn_like(x, dtype="float64")),
        info(paddle.rand_like(x, requires_grad=True), 0, 1),
        info(paddle.uniform([2, 3]), 0, 1),
        info(paddle.uniform([2, 3], min=-5, max=-4), -5, -4),
        info(paddle.uniform([2], "float64", 2, 3, seed=1), 2, 3),
        bool((paddle.uniform([3], seed=7).numpy() == paddle.uniform([3], seed=7).numpy()).all()),
        info(paddle.normal(shape=[2, 3])),
        info(paddle.normal(2.0, 0.1, [3]), 1, 3),
        info(paddle.normal(x)),
        info(paddle.normal(0.0, paddle.ones([3]))),
        info(paddle.normal(paddle.ones([2], "float64"), 1.0)),
        info(paddle.normal(1, 2, [2])),
        info(paddle.normal(paddle.ones([2]), 1.0, [5])),
        info(paddle.normal(m, 1.0)),
        info(paddle.log_normal(1.0, 0.5, [3]), 0),
        info(paddle.log_normal(shape=[2]), 0),
        expect_error(lambda: paddle.normal(paddle.ones([2, 3]), paddle.ones([3]))),
        expect_error(lambda: paddle.normal(1 + 2j, 1.0, [2])),
    ]


def case_default_dtype_float64():
    paddle.set_default_dtype("float64")
    try:
        return [
            info(paddle.rand([2])),
            info(paddle.randn([2])),
            info(paddle.uniform([2])),
            info(paddle.normal(shape=[2])),
            info(paddle.standard_normal([2])),
            info(paddle.log_normal(shape=[2])),
        ]
    finally:
        paddle.set_default_dtype("float32")


def case_randperm():
    outs = [
        paddle.randperm(5),
        paddle.randperm(5, "int32"),
        paddle.randperm(5, "float32"),
        paddle.randperm(0),
    ]
    return [info(t) for t in outs] + [sorted(t.numpy().tolist()) for t in outs]


def case_bernoulli_poisson_gamma():
    p = paddle.to_tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.2]])
    b = paddle.bernoulli(p)
    lam = paddle.to_tensor([[0.0, 1.0, 10.0]], stop_gradient=False)
    po = paddle.poisson(lam)
    po.sum().backward()
    return [
        info(b, 0, 1, True),
        b.numpy()[p.numpy() == 1.0].tolist(),
        b.numpy()[p.numpy() == 0.0].tolist(),
        info(paddle.bernoulli(p, p=0.0), 0, 0),
        info(paddle.bernoulli(paddle.ones([2], "float64")), 1, 1),
        info(paddle.bernoulli(paddle.to_tensor([0.5], stop_gradient=False))),
        info(po, 0, INF, True),
        po.numpy()[0, 0],
        lam.grad,
        info(paddle.standard_gamma(paddle.ones([3])), 0),
        info(paddle.binomial(paddle.to_tensor([5, 10]), paddle.to_tensor([0.5, 0.2])), 0, 10),
        expect_error(lambda: paddle.bernoulli(paddle.ones([2], "int64"))),
        expect_error(lambda: paddle.poisson(paddle.ones([2], "int64"))),
        expect_error(lambda: paddle.standard_gamma(paddle.ones([3], "int64"))),
    ]


def case_multinomial():
    pr = paddle.to_tensor([[0.0, 1.0, 3.0], [1.0, 0.0, 0.0]])
    one = paddle.multinomial(pr[1:], 3, replacement=True)
    wo = paddle.multinomial(paddle.to_tensor([0.2, 0.3, 0.5]), 3)
    return [
        info(paddle.multinomial(pr[0]), 1, 2),
        info(paddle.multinomial(pr, 4, replacement=True)),
        one.numpy().tolist(),
        info(wo),
        sorted(wo.numpy().tolist()),
        info(paddle.multinomial(paddle.ones([3], "float64"))),
        info(pr.multinomial(1)),
        expect_error(lambda: paddle.multinomial(pr, 2)),
        expect_error(lambda: paddle.multinomial(-pr)),
        expect_error(lambda: paddle.multinomial(paddle.ones([2, 2, 2]))),
        expect_error(lambda: paddle.multinomial(paddle.ones([3], "int64"))),
        expect_error(lambda: paddle.multinomial(paddle.zeros([3]))),
    ]


def case_inplace_fills():
    x = paddle.to_tensor(np.ones((2, 3), "float32"))
    leaf = paddle.to_tensor(np.ones(3, "float32"), stop_gradient=False)
    y = leaf * 2
    return [
        x.uniform_() is x,
        info(x, 0, 1),
        info(x.uniform_(-2, -1), -2, -1),
        info(x.normal_(5, 0.1), 4, 6),
        info(x.exponential_(2.0), 0),
        info(paddle.normal_(x)),
        info(x.bernoulli_(0.5), 0, 1, True),
        info(paddle.bernoulli_(x, 0.5), 0, 1, True),
        info(x.log_normal_(), 0),
        info(x.cauchy_()),
        info(x.geometric_(0.5), 0),
        info(x.random_(0, 5), 0, 4, True),
        info(paddle.ones([3], "int64").random_(5), 0, 4, True),
        info(paddle.ones([3], "int32").random_(), 0, INF, True),
        info(leaf.exponential_(), 0),
        info(y.uniform_(), 0, 1),
        info(y.normal_()),
        expect_error(lambda: paddle.to_tensor([1.0], stop_gradient=False).uniform_()),
        expect_error(lambda: paddle.to_tensor([1.0], stop_gradient=False).normal_()),
        expect_error(lambda: paddle.to_tensor([1.0], stop_gradient=False).bernoulli_()),
        expect_error(lambda: paddle.ones([2], "int64").uniform_()),
        expect_error(lambda: paddle.ones([2], "int64").normal_()),
        expect_error(lambda: paddle.ones([2], "int32").exponential_()),
    ]


def case_seed_and_state():
    paddle.seed(5)
    a = paddle.rand([3]).numpy()
    paddle.seed(5)
    b = paddle.rand([3]).numpy()
    state = paddle.get_rng_state()
    c = paddle.randn([4]).numpy()
    paddle.set_rng_state(state)
    d = paddle.randn([4]).numpy()
    e = paddle.randn([4]).numpy()
    return [
        bool((a == b).all()),
        bool((c == d).all()),
        bool((d == e).all()),
        type(state).__name__,
        len(state),
    ]
