"""Tensor indexing: x[idx] (basic, advanced, boolean, mixed; Paddle's int-first rule) and
x[idx] = v (dtype cast, broadcasting, autograd), with error types."""

import numpy as np
from _util import expect_error, randn

import paddle

S = slice(None)
_A = np.arange(120).reshape(2, 3, 4, 5)
_M = _A[0, :, :, 0] > 30  # a [3, 4] mask

# index -> applied to arange(120).reshape([2, 3, 4, 5]) (as a numpy index or with Tensors)
_GET_INDICES = [
    0,
    -1,
    (0, 1),
    (0, 1, 2, 3),
    (1, -1, 2),
    slice(None, None, -1),
    (S, slice(None, None, -2)),
    (S, slice(3, 0, -2), slice(1, 4, 2), 1),
    (1, slice(-1, None, -3)),
    (Ellipsis, 1),
    (None, 0),
    (0, None, slice(1, 3)),
    (Ellipsis, None),
    (None, Ellipsis, None),
    slice(5, 1),
    (),
    Ellipsis,
    slice(-100, 100),
    [0, 1],
    ([0, 1],),
    ([0, 1], [1, 2]),
    (S, [0, 2]),
    (S, [0, 1], [1, 2]),
    (S, [[0], [1]], [1, 2]),
    ([0, 1], S, [0, 2]),
    ([0, 1], 0, [0, 2]),
    (0, [0, 1], [0, 2]),
    (0, S, [0, 2]),
    (S, 0, [0, 2]),
    (S, [0, 1], 0, [0, 2]),
    ([0, 1], S, 0, [0, 2]),
    (S, [0, 1], S, [0, 2]),
    (0, [0, 1], S, [0, 2]),
    (S, [0, 1], S, 0),
    (S, [1], S, 0),
    (Ellipsis, [0, 1]),
    ([[0, 1], [1, 0]],),
    ((0, 1),),
    [-1, 0],
    ([], S),
    [True, False],
    (S, [True, False, True]),
    (S, _M),
    (0, _M, S),
    True,
    False,
    (0, True),
    (1, Ellipsis, 2),
]


def _as_tensor_index(idx):
    """Same index with lists turned into Tensors (bool lists into bool Tensors)."""
    items = idx if isinstance(idx, tuple) else (idx,)
    out = []
    for it in items:
        if isinstance(it, list) or isinstance(it, np.ndarray):
            out.append(paddle.to_tensor(np.asarray(it)))
        else:
            out.append(it)
    return tuple(out) if isinstance(idx, tuple) else out[0]


def case_getitem_table():
    x = paddle.arange(120).reshape([2, 3, 4, 5])
    return [x[i] for i in _GET_INDICES]


def case_getitem_tensor_indices():
    x = paddle.arange(120).reshape([2, 3, 4, 5])
    outs = [
        x[_as_tensor_index(i)]
        for i in _GET_INDICES
        if isinstance(i, list | tuple)
        and any(isinstance(a, list) for a in (i if isinstance(i, tuple) else (i,)))
    ]
    t0 = paddle.to_tensor(1)
    outs += [
        x[t0],
        x[t0, S, [0, 2]],
        x[paddle.to_tensor(-1)],
        x[np.int64(1), S, [0, 2]],
        x[paddle.to_tensor([1]), S, [0, 2]],
        x[paddle.to_tensor([[1]]), S, [0, 2]],
        x[paddle.to_tensor([0, 1], dtype="int32")],
        x[S, paddle.to_tensor([2, 0])],
        x[np.array([0, 1])],
        x[_A > 10],
        x[paddle.to_tensor(_A > 10)],
        x[paddle.to_tensor([True, False])],
        x[paddle.to_tensor(True)],
        x[np.zeros((2, 3, 4, 5), bool)],
        x[np.array([], dtype=np.int64)],
        x[S, np.array([True, False, True])],
        x[S, 1:2, np.array(1)],
    ]
    return outs


def case_getitem_dtypes_and_0d():
    outs = []
    for dt in ["float16", "float32", "int32", "int64", "bool", "complex64"]:
        x = paddle.to_tensor(np.arange(6).reshape(2, 3)).astype(dt)
        outs += [x[1], x[:, ::2], x[[1, 0]], x[x != x[0, 0]] if dt != "complex64" else x[0, 1]]
    s = paddle.to_tensor(2.5)
    outs += [
        s[()],
        s[None],
        s[...],
        s[None, ..., None],
        paddle.zeros([0, 3])[:, 1],
        paddle.zeros([0, 3])[1:],
        paddle.zeros([2, 0])[1],
    ]
    return outs


def case_getitem_errors():
    x = paddle.arange(120).reshape([2, 3, 4, 5])
    s = paddle.to_tensor(1.0)
    return [
        expect_error(lambda: x[5]),
        expect_error(lambda: x[0, 5]),
        expect_error(lambda: x[-3]),
        expect_error(lambda: x[S, S, S, S, S]),
        expect_error(lambda: x[0, 0, 0, 0, 0]),
        expect_error(lambda: x[..., ...]),
        expect_error(lambda: x[[0, 1], [0, 1, 2]]),
        expect_error(lambda: x[paddle.to_tensor([0.5])]),
        expect_error(lambda: x[paddle.to_tensor([True, False, True])]),
        expect_error(lambda: x[1.0]),
        expect_error(lambda: x["a"]),
        expect_error(lambda: x[[0, S]]),
        expect_error(lambda: s[0]),
        expect_error(lambda: x[S, _M, [0, 1, 2, 3, 4, 0, 1]]),
    ]


def _leaf(a):
    return paddle.to_tensor(a, stop_gradient=False)


def case_getitem_grad():
    outs = []
    for idx in [
        (0,),
        (S, slice(None, None, -2)),
        ([2, 0, 2],),
        (S, [0, 0, 1]),
        (1, [0, 2]),
        (slice(1, None), None, 1),
        ([0, 1], [2, 2]),
        (Ellipsis, -1),
    ]:
        x = _leaf(randn(3, 4))
        y = x[idx]
        (y * y).sum().backward()
        outs += [y, x.grad]
    x = _leaf(np.arange(6, dtype="float32").reshape(2, 3))
    y = x[x > 2]
    y.sum().backward()
    outs += [y, x.grad]
    x = _leaf(randn(3, 2))
    i = paddle.to_tensor(2)
    (x[i] * 3).sum().backward()
    outs += [x.grad]
    return outs


def case_getitem_loop_and_iter():
    x = paddle.to_tensor(randn(4, 3))
    rows = [x[i] for i in range(4)]
    cols = [x[:, j] for j in range(-3, 0)]
    wins = [x[i : i + 2] for i in range(3)]
    return [rows, cols, wins, list(paddle.arange(3)), [r.shape for r in x]]


def _set(x, idx, v):
    x[idx] = v
    return x


def case_setitem_table():
    def z(*shape, dtype="float32"):
        return paddle.zeros(list(shape), dtype=dtype)

    r = paddle.to_tensor
    return [
        _set(z(3, 4), 0, 1.5),
        _set(z(3, 4), (1, slice(1, 3)), r([7.0, 8.0])),
        _set(z(3, 4), (S, -1), r([1, 2, 3])),
        _set(z(3, dtype="int32"), 0, 2.7),
        _set(z(3, dtype="int32"), 1, r(3.9)),
        _set(z(3, 4), (S, slice(None, None, 2)), 5.0),
        _set(z(3, 4), (slice(None, None, -1), 0), r([1.0, 2.0, 3.0])),
        _set(z(3, 4), (S, slice(3, 0, -2)), r([[1.0, 2.0]])),
        _set(z(3, 4), ([0, 2], [1, 3]), r([1.0, 2.0])),
        _set(z(3, 4), [0, 2], r([4.0, 5.0, 6.0, 7.0])),
        _set(z(3, 4), (S, [0, 2]), 9.0),
        _set(z(3, 4), 0, np.arange(4)),
        _set(z(2, 2), Ellipsis, 3),
        _set(z(2, 2), 0, r([[1.0, 1.0]])),
        _set(z(2, 2, dtype="bool"), (0, 1), True),
        _set(z(3), 1, r([5.0])),
        _set(z(3, dtype="int64"), 0, 2**40),
        _set(z(3), 0, r(2, dtype="int64")),
        _set(z(3, dtype="float16"), 0, r(2.5, dtype="float64")),
        _set(
            paddle.arange(12, dtype="float32").reshape([3, 4]),
            paddle.arange(12).reshape([3, 4]) > 6,
            -1.0,
        ),
        _set(z(3, 4), r([True, False, True]), r([1.0, 2.0, 3.0, 4.0])),
        _set(z(3, 4), np.array([True, False, True]), r([[1.0], [2.0]])),
        _set(z(3, 2), r([[True, False], [False, True], [True, True]]), r([1.0, 2.0, 3.0, 4.0])),
        _set(z(3, 4), (S, np.array([True, False, True, False])), 2.0),
        _set(z(3, 4), (r(1), S), 6.0),
        _set(z(2, 3, 4), (0, S, [0, 2]), r([[1.0, 2.0, 3.0]]).T),
        _set(z(3, 4), (None, 1), 4.0),
        _set(z(0, 3), S, 1.0),
    ]


def case_setitem_errors():
    x = paddle.zeros([3, 4])
    leaf = paddle.ones([3])
    leaf.stop_gradient = False
    return [
        expect_error(lambda: _set(x, 0, paddle.ones([2]))),
        expect_error(lambda: _set(x, (S, 1), paddle.ones([3, 1]))),
        expect_error(lambda: _set(x, 0, [1, 2, 3, 4])),
        expect_error(lambda: _set(x, 5, 1.0)),
        expect_error(lambda: _set(leaf, 0, 2.0)),
        expect_error(lambda: _set(x, 1.5, 2.0)),
        expect_error(lambda: _set(x, [True, False], 2.0)),
        expect_error(lambda: _set(x, slice(1, 3), np.float32(7.0))),
    ]


def case_setitem_autograd():
    outs = []
    x = _leaf(np.ones(3, "float32"))
    y = x * 2
    y[0] = 10.0
    y.sum().backward()
    outs += [y, x.grad]

    x = paddle.ones([3])
    v = _leaf(np.float32(4.0))
    x[1] = v
    (x * x).sum().backward()
    outs += [x.stop_gradient, v.grad]

    x = paddle.ones([3, 2])
    v = _leaf(np.array([4.0, 5.0], "float32"))
    x[[0, 2]] = v
    (x * 3).sum().backward()
    outs += [x.stop_gradient, v.grad]

    w = _leaf(randn(4, 3))
    h = w * 1.0
    v = _leaf(randn(2, 3, seed=1))
    h[1:3] = v * 2
    h[h > 0.5] = 0.0
    (h * h).sum().backward()
    outs += [h, w.grad, v.grad]

    leaf = _leaf(np.ones(3, "float32"))
    with paddle.no_grad():
        leaf[0] = 2.0
    outs += [leaf, leaf.stop_gradient]

    x = _leaf(randn(2, 3))
    y = x * 2.0
    y[:, 1] = y[:, 0] * 3
    y.sum().backward()
    outs += [y, x.grad]
    return outs


def case_setitem_return_value():
    x = paddle.zeros([3])
    r = x.__setitem__(0, 1.0)
    return [r, x]
