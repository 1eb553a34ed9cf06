"""Paddle 3.3's argument forms on shape-taking Tensor methods (PyTorch-style ``*shape`` varargs,
0-D Tensors among them, ``size=``/``dims=``/``repeats=`` keywords), paddle.range's
``out``/``device``/``requires_grad``, and the errors of the forms Paddle refuses."""

import numpy as np
from _util import expect_error

import paddle

X = np.arange(24, dtype="float32").reshape(2, 3, 4)


def _x():
    return paddle.to_tensor(X)


def case_method_varargs():
    x, t4 = _x(), paddle.to_tensor(4)
    y = paddle.to_tensor(X[0])
    return [
        x.reshape(4, 6),
        x.reshape(t4, -1),
        x.reshape((6, 4)),
        x.view(6, 4),
        x.view(t4, 6),
        x.view(size=[24]),
        x.permute(2, 0, 1),
        x.permute([2, 0, 1]),
        y.repeat(2, 1),
        y.repeat([1, 2]),
        y.repeat(repeats=[2, 2]),
        y.expand(2, 3, 4),
        y.expand(paddle.to_tensor(2), 3, 4),
        y.tile(2, 1),  # binds name=1 in Paddle: repeat_times=[2]
        y.tile((2, 1)),
        x.swapaxes(0, 2),
        paddle.concat((y, y), axis=paddle.to_tensor([1])),
    ]


def case_transpose_dims():
    x = _x()
    return [
        paddle.transpose(x, 0, 2),
        paddle.transpose(x, dim0=1, dim1=2),
        x.transpose(2, 1),
        paddle.swapaxes(x, axis0=0, axis1=1),
        paddle.swapdims(x, 0, 1),
        x.swapdims(dim0=2, dim1=0),
        paddle.permute(x, 2, 1, 0),
        expect_error(lambda: paddle.reshape(x, shape=24)),
    ]


def case_shape_arg_errors():
    x = _x()
    return [
        expect_error(lambda: x.reshape([(4, 6)])),
        expect_error(lambda: x.reshape([4.0, 6])),
        expect_error(lambda: paddle.reshape(x, "ab")),
        expect_error(lambda: x.permute(x=x, dims=[0, 1, 2])),
        expect_error(lambda: paddle.narrow(x=x, axis=0, start=0, length=1)),
        expect_error(lambda: paddle.ravel(x=x)),
        expect_error(lambda: paddle.unbind(x=x)),
        expect_error(lambda: paddle.t(x=x[0])),
        expect_error(lambda: paddle.linalg.matrix_norm(x, ord="fro")),
        expect_error(lambda: paddle.linalg.matrix_norm(x, dim=[0, 1])),
    ]


def case_aliases():
    x = _x()
    return [
        paddle.linalg.vector_norm(x, ord=1, dim=0),
        paddle.linalg.vector_norm(x, 2.0, None, False, None, dtype="float64"),
        paddle.repeat_interleave(x[0], 2, dim=1),
        paddle.scatter_reduce(
            x[0], 0, paddle.zeros([3, 4], "int64"), x[0], "sum", include_self=False
        ),
        paddle.atleast_2d(x[0, 0], x[0], name="a"),
        paddle.Tensor.astype(self=x, dtype="int32"),
    ]


def case_torch_keywords():
    x, m = _x(), paddle.to_tensor(X[0])
    a = paddle.to_tensor([[3.0, 1.0], [1.0, 2.0]])
    idx = paddle.to_tensor([0, 2])
    return [
        paddle.squeeze(x[:, :1], dim=1),
        paddle.unsqueeze(m, dim=0),
        paddle.chunk(x, 2, dim=2),
        paddle.broadcast_to(m[:1], size=[2, 3, 4]),
        paddle.take_along_axis(m, paddle.to_tensor([[0], [1], [2]]), dim=1),
        paddle.unflatten(x, dim=2, sizes=[2, 2]),
        paddle.norm(A=m, ord=1, dim=1),
        paddle.cross(paddle.ones([3, 3]), paddle.eye(3), dim=0),
        paddle.linalg.solve(A=a, B=paddle.ones([2, 1])),
        paddle.index_select(m, idx, dim=1),
        paddle.index_add(m, idx, dim=1, source=paddle.ones([3, 2])),
    ]


def case_range():
    out = paddle.zeros([1])
    r = paddle.range(0, 3, out=out)
    g = paddle.range(0, 5, 2, device="cpu", requires_grad=True)
    return [
        r,
        out,
        g,
        g.stop_gradient,
        paddle.range(1, 2, 0.25, "float64"),
        expect_error(lambda: paddle.range(0, 5, device=3)),
    ]
