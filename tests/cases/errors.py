"""Bad input gets Paddle's exception type (messages are compared by eye, not here)."""

import paddle.nn.functional as F
from _util import expect_error

import paddle


def case_common_mistakes():
    lin = paddle.nn.Linear(4, 3)
    return [
        expect_error(lambda: lin(paddle.ones([2, 5]))),
        expect_error(lambda: paddle.ones([2, 3]).reshape([4, 2])),
        expect_error(lambda: paddle.concat([paddle.ones([2, 3]), paddle.ones([2, 4])])),
        expect_error(lambda: F.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([0, 5]))),
        expect_error(lambda: F.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([[0, 1, 2]]))),
        expect_error(lambda: paddle.nn.Conv2D(3, 4, 3)(paddle.ones([1, 2, 5, 5]))),
        expect_error(lambda: paddle.to_tensor("abc")),
        expect_error(lambda: paddle.ones([2, 3]).sum(axis=5)),
        expect_error(lambda: paddle.ones([2, 3]).transpose([0, 0])),
        expect_error(lambda: F.mse_loss(paddle.ones([2, 3]), paddle.ones([3, 2]))),
        expect_error(lambda: paddle.nn.Embedding(4, 2)(paddle.to_tensor([5]))),
    ]


def case_matmul_family_needs_one_dtype():
    f32, f64 = paddle.ones([2, 2]), paddle.ones([2, 2], dtype="float64")
    return [
        expect_error(lambda: paddle.matmul(f32, f64)),
        expect_error(lambda: paddle.mm(f32, f64)),
        expect_error(lambda: paddle.bmm(f32.unsqueeze(0), f64.unsqueeze(0))),
        paddle.matmul(paddle.ones([2, 2], dtype="int64"), paddle.ones([2, 2], dtype="int64")),
    ]


def case_bernoulli_probabilities_out_of_range():
    return [
        expect_error(lambda: paddle.bernoulli(paddle.to_tensor([0.5, -0.2]))),
        expect_error(lambda: paddle.bernoulli(paddle.to_tensor([float("nan")]))),
        expect_error(lambda: paddle.bernoulli(paddle.to_tensor([0.3, 1.5]))),
        expect_error(lambda: paddle.bernoulli(paddle.full([2], 0.3), p=1.5)),
        paddle.bernoulli(paddle.to_tensor([0.0, 1.0])),
    ]


def case_lu_without_pivoting_is_cpu_unsupported():
    return [expect_error(lambda: paddle.linalg.lu(paddle.eye(2), pivot=False))]
