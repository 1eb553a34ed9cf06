"""Attributes (rank, shape, is_empty, is_complex...), complex numbers (real, imag, conj, angle,
complex, polar, as_complex/as_real) and extra manipulation (ravel, scatter_add,
scatter_reduce, block_diag, as_strided, fill_/zero_/fill_diagonal_, fill_diagonal_tensor,
tril/triu_indices, diagflat, range, split_with_sizes)."""

import numpy as np
from _api_util import t
from _util import backprop, expect_error, randn

import paddle


def _c():
    return paddle.as_complex(paddle.to_tensor([[1.0, 2.0], [3.0, -4.0], [0.0, 0.0]]))


def case_attributes():
    x = t(2, 3)
    e = paddle.zeros([0, 3])
    return [
        paddle.rank(x),
        paddle.rank(paddle.to_tensor(1.0)),
        x.rank(),
        paddle.shape(x),
        paddle.shape(e),
        paddle.shape(paddle.to_tensor(2.0)),
        paddle.is_empty(x),
        paddle.is_empty(e),
        x.is_empty(),
        [paddle.is_complex(a) for a in (x, _c(), paddle.to_tensor([1]))],
        [
            paddle.is_floating_point(a)
            for a in (x, _c(), paddle.to_tensor([1]), x.astype("float16"))
        ],
        [
            paddle.is_integer(a)
            for a in (
                x,
                paddle.to_tensor([1]),
                paddle.to_tensor([True]),
                paddle.to_tensor([1], dtype="uint8"),
            )
        ],
        x.is_floating_point(),
        x.is_integer(),
        x.is_complex(),
        expect_error(lambda: paddle.is_complex([1.0])),
    ]


def case_complex_parts():
    c = _c()
    x = t(3)
    return [
        paddle.real(c),
        paddle.imag(c),
        c.real(),
        c.imag(),
        paddle.conj(c),
        paddle.conj(x),
        paddle.conj(paddle.to_tensor([1, 2])),
        paddle.angle(c),
        paddle.angle(x),
        c.conj(),
        c.angle(),
        expect_error(lambda: paddle.real(x)),
        expect_error(lambda: paddle.imag(x)),
        expect_error(lambda: paddle.angle(paddle.to_tensor([1, 2]))),
    ]


def case_complex_build():
    re, im = t(2, 3), t(2, 3, seed=1)
    return [
        paddle.complex(re, im),
        paddle.complex(re, paddle.to_tensor(2.0)),
        paddle.complex(re.astype("float64"), im.astype("float64")),
        paddle.polar(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.0, 1.0])),
        paddle.as_complex(paddle.stack([re, im], axis=-1)),
        paddle.as_real(paddle.complex(re, im)),
        paddle.view_as_real(paddle.complex(re, im)),
        paddle.view_as_complex(paddle.to_tensor([[1.0, 2.0]])),
        paddle.complex(re, im).as_real(),
        paddle.stack([re, im], -1).as_complex(),
        expect_error(lambda: paddle.complex(re, im.astype("float64"))),
        expect_error(lambda: paddle.complex(paddle.to_tensor([1]), paddle.to_tensor([2]))),
        expect_error(lambda: paddle.as_complex(paddle.ones([2, 3]))),
        expect_error(lambda: paddle.as_real(paddle.ones([2, 3]))),
    ]


def case_complex_grads():
    def f(a, b):
        c = paddle.complex(a, b)
        return [paddle.real(c * c), paddle.imag(c * c), paddle.as_real(c) * 2, paddle.abs(c)]

    def g(r, th):
        p = paddle.polar(r, th)
        return [paddle.real(p), paddle.imag(p)]

    return [
        backprop(f, randn(2, 2), randn(2, 2, seed=1)),
        backprop(g, np.abs(randn(3)) + 0.5, randn(3, seed=2)),
        backprop(lambda a: paddle.real(paddle.as_complex(a)) * 3, randn(2, 2)),
        backprop(lambda a: paddle.angle(a), np.array([-1.0, 2.0], "float32")),
    ]


# -- manipulation -------------------------------------------------------------------------------
def case_ravel_split():
    x = t(2, 3)
    return [
        paddle.ravel(x),
        paddle.ravel(paddle.to_tensor(1.0)),
        x.ravel(),
        x.split_with_sizes([1, 2], dim=1),
        x.split_with_sizes([2]),
        expect_error(lambda: x.split_with_sizes([1, 1], dim=1)),
        backprop(lambda a: paddle.ravel(a) * 2, randn(2, 2)),
    ]


def case_scatter_add_reduce():
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
    i = paddle.to_tensor([[0, 1, 0], [1, 0, 1]])
    src = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y = x.clone()
    y.scatter_add_(1, paddle.to_tensor([[0], [2]]), src)
    out = [
        paddle.scatter_add(x, 0, i, src),
        paddle.scatter_add(x, 1, i[:, :2], src),
        y,
        x.scatter_add(0, i, src),
    ]
    for red in ("sum", "prod", "mean", "amin", "amax"):
        out.append(paddle.scatter_reduce(x, 0, i, src, red))
        out.append(paddle.scatter_reduce(x, 0, i, src, red, include_self=False))
    out.append(expect_error(lambda: paddle.scatter_reduce(x, 0, i, src, "foo")))
    out.append(
        paddle.scatter_add(
            paddle.to_tensor([1, 2, 3]), 0, paddle.to_tensor([0, 0]), paddle.to_tensor([5, 6])
        )
    )
    return out


def case_scatter_grads():
    idx = paddle.to_tensor([[0, 1, 0], [1, 0, 1]])
    return [
        backprop(lambda a, s: paddle.scatter_add(a, 0, idx, s), randn(2, 3), randn(2, 3, seed=1)),
        backprop(
            lambda a, s: paddle.scatter_reduce(a, 0, idx, s, "sum"),
            randn(2, 3),
            randn(2, 3, seed=1),
        ),
    ]


def case_block_diag():
    a = paddle.to_tensor([[1, 2]])
    b = paddle.to_tensor([[3], [4]])
    return [
        paddle.block_diag([a, b]),
        paddle.block_diag([paddle.to_tensor(5), a]),
        paddle.block_diag([t(2, 2), t(3, seed=1), t(1, 1, seed=2)]),
        backprop(lambda x, y: paddle.block_diag([x, y]), randn(2, 2), randn(1, 3, seed=1)),
    ]


def case_as_strided():
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
    return [
        paddle.as_strided(x, [3, 2], [1, 3]),
        paddle.as_strided(x, [2, 2], [1, 1], 4),
        paddle.as_strided(x.astype("float64"), [2], [2], 8),
        x.as_strided([2], [2]),
        paddle.as_strided(x, [2, 3], [3, 1]),
        backprop(lambda a: paddle.as_strided(a, [2, 2], [1, 2]), randn(2, 3)),
    ]


def case_fills():
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    r1 = x.fill_(2.5)
    y = paddle.to_tensor([[1, 2], [3, 4]])
    y.zero_()
    z = paddle.to_tensor([1, 2])
    z.fill_(7)
    leaf = paddle.to_tensor([1.0], stop_gradient=False)
    return [
        x,
        bool(r1 is x),
        y,
        z,
        expect_error(lambda: leaf.fill_(1.0)),
        expect_error(lambda: leaf.zero_()),
    ]


def case_fill_diagonal():
    outs = []
    for shape, kw in (
        ([3, 3], {}),
        ([5, 3], {"wrap": True}),
        ([5, 3], {}),
        ([3, 4], {"offset": 1}),
        ([3, 4], {"offset": -1}),
        ([2, 2, 2], {}),
    ):
        z = paddle.zeros(shape)
        z.fill_diagonal_(5.0, **kw)
        outs.append(z)
    # (a 1-D x crashes Paddle 3.3.1 with SIGFPE: not recorded)
    return outs


def case_fill_diagonal_tensor():
    x = paddle.zeros([2, 3])
    y = paddle.zeros([2, 3])
    y.fill_diagonal_tensor_(paddle.to_tensor([1.0, 2.0]), offset=1)
    b = paddle.zeros([2, 3, 3])
    return [
        x.fill_diagonal_tensor(paddle.to_tensor([1.0, 2.0])),
        y,
        x.fill_diagonal_tensor(paddle.to_tensor([7.0]), offset=-1),
        b.fill_diagonal_tensor(paddle.ones([2, 3]), dim1=1, dim2=2),
        paddle.zeros([3, 2, 2]).fill_diagonal_tensor(paddle.ones([2, 2]), dim1=0, dim2=1),
        expect_error(lambda: x.fill_diagonal_tensor(paddle.to_tensor([1.0, 2.0, 3.0]))),
        # Paddle 3.3.1 gives y no gradient (None); we give the true one, so only x here
        backprop(lambda a: a.fill_diagonal_tensor(paddle.to_tensor([1.0, 2.0])), randn(2, 3)),
    ]


def case_creation():
    return [
        paddle.tril_indices(3, 3),
        paddle.tril_indices(3, 4, 1),
        paddle.tril_indices(2, 3, -1, "int32"),
        paddle.triu_indices(3),
        paddle.triu_indices(3, 4, 1),
        paddle.triu_indices(4, 2, -1, dtype="int32"),
        paddle.diagflat(paddle.to_tensor([1, 2])),
        paddle.diagflat(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), offset=1),
        paddle.diagflat(paddle.to_tensor([1.0, 2.0]), offset=-2),
        paddle.to_tensor([1.0, 2.0]).diagflat(),
        paddle.range(0, 3),
        paddle.range(0, 2, 0.5),
        paddle.range(4),
        paddle.range(1, 4, 2, dtype="int64"),
        paddle.range(5, 1, -2),
        backprop(lambda a: paddle.diagflat(a, 1), randn(2)),
    ]


def case_windows():
    out = []
    for name in (
        "hann_window",
        "hamming_window",
        "blackman_window",
        "bartlett_window",
        "kaiser_window",
    ):
        fn = getattr(paddle, name)
        out.append([fn(5), fn(5, periodic=False), fn(4, dtype="float64"), fn(1), fn(0)])
    return [
        *out,
        paddle.kaiser_window(6, beta=3.0),
        paddle.kaiser_window(5, False, 5.0),
        paddle.hann_window(4, requires_grad=True).stop_gradient,
        expect_error(lambda: paddle.hann_window(-1)),
        expect_error(lambda: paddle.hann_window(3, dtype="int32")),
    ]


def case_assign_inputs_and_output():
    """assign: numpy's dtype for non-Tensor input (Python floats float64), scalars as [1];
    ``output`` takes the copy's value, shape, dtype and gradient history and is returned."""
    values = [[1.0, 2.0], [1, 2], 1.5, [True], np.array([1.0, 2.0]), np.float32(2), 3, (1.0,)]
    copies = [paddle.assign(v) for v in values]
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out = paddle.zeros([3], "int64")
    returned = paddle.assign(x, out)
    (out * 3).sum().backward()
    return {
        "copies": copies,
        "output": [returned is out, out, x.grad],
        "into_float": paddle.assign([5, 6], paddle.zeros([2])),
    }
