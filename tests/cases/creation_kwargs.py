"""Paddle 3.3's PyTorch-style keyword arguments of the creation and random ops: device=,
requires_grad=, pin_memory=, out=, size=, and the renamed parameters (rand_like's input,
paddle.seed's seed), on seeded values (the eager random ops reproduce Paddle's CPU stream)."""

from _util import expect_error

import paddle


def case_random_size_device_requires_grad():
    out = []
    for make in (
        lambda: paddle.rand(size=[2, 3]),
        lambda: paddle.randn(size=[3], dtype="float64"),
        lambda: paddle.normal(0.0, 2.0, size=[3]),
        lambda: paddle.rand(2, 3),
        lambda: paddle.randn(3, 2, 1),
        lambda: paddle.rand([2], device="cpu", requires_grad=True),
        lambda: paddle.randn([2], device=paddle.CPUPlace()),
        lambda: paddle.standard_normal([2], requires_grad=True),
        lambda: paddle.uniform([3], min=-1.0, max=1.0, requires_grad=True, device="cpu"),
        lambda: paddle.randperm(5, device="cpu", requires_grad=False),
        lambda: paddle.randint(0, 5),
        lambda: paddle.rand_like(input=paddle.ones([2, 2]), dtype="float64", device="cpu"),
        lambda: paddle.randn_like(paddle.ones([3]), None, "n", requires_grad=True),
    ):
        paddle.seed(seed=11)
        out.append(make())
    return out


def case_random_out():
    paddle.seed(5)
    o = paddle.ones([4], dtype="float64")
    r = paddle.rand([2], out=o)
    o2 = paddle.zeros([1], dtype="int64")
    paddle.randperm(4, out=o2)
    return [r, o, o2]


def case_random_bad_device_and_pin_memory():
    return [
        expect_error(lambda: paddle.rand([2], device="xyz")),
        expect_error(lambda: paddle.randn([2], device=0)),
        expect_error(lambda: paddle.rand([2], pin_memory=True)),
        expect_error(lambda: paddle.randperm(3, pin_memory=True)),
    ]


def case_inplace_fills_take_name():
    paddle.seed(3)
    x = paddle.zeros([4])
    a = x.uniform_(0.0, 2.0, 0, "u").clone()
    b = x.exponential_(1.5, "e").clone()
    c = x.random_(0, 10, generator=None).clone()
    return [a, b, c]


def case_creation_out_and_requires_grad():
    o = paddle.ones([3])
    r = paddle.full([2, 2], 4.0, out=o)
    e = paddle.eye(2, 3, "float32", None, device="cpu", requires_grad=True)
    lin = paddle.linspace(0, 1, 5, "float64", None, requires_grad=True)
    return [r, o, e, lin, paddle.ones_like(paddle.ones([2]), requires_grad=True)]
