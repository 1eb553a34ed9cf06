"""paddle.sparse core: COO / CSR creation (shape inference, dtypes, dense dims, batched CSR),
the sparse Tensor methods on sparse and dense Tensors, conversions between layouts,
coalesce, printing, and Paddle's errors; sparse math on the stored values (unary ops, pow,
cast, isnan, activations, mask_as) and add/subtract/multiply/divide of two sparse Tensors.
Sparse Tensors are returned through their parts (``indices()``, ``values()``, ``to_dense()``,
``str``): Paddle's ``numpy()`` of one crashes."""

import numpy as np
from _util import expect_error

import paddle

S = paddle.sparse
TOLERANCE = {"case_unary": (1e-5, 1e-6), "case_softmax": (1e-5, 1e-6)}


def _coo(x):
    return [x.indices(), x.values(), x.to_dense(), str(x), list(x.shape), x.stop_gradient]


def _csr(x):
    return [x.crows(), x.cols(), x.values(), x.to_dense(), str(x), list(x.shape)]


def case_coo_creation():
    return [
        _coo(S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1.0, 2.0, 3.0], [3, 3])),
        _coo(S.sparse_coo_tensor([[0, 1], [1, 0]], [1, 2])),
        _coo(S.sparse_coo_tensor([[0, 1], [1, 0]], np.array([1.0, 2.0]))),
        _coo(S.sparse_coo_tensor([[0, 1], [1, 0]], [1, 2], dtype="float64")),
        _coo(S.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], stop_gradient=False)),
        _coo(S.sparse_coo_tensor([[0, 3], [1, 0]], [1.0, 2.0])),
        _coo(S.sparse_coo_tensor([[0, 3], [1, 0]], [1.0, 2.0], (5, 1))),
        _coo(
            S.sparse_coo_tensor(
                paddle.to_tensor([[0, 0, 1], [1, 3, 2]], dtype="int32"),
                paddle.to_tensor([1.0, 2.0, 3.0]),
                shape=[2, 4],
            )
        ),
        _coo(S.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], dtype="float16")),
        _coo(
            S.sparse_coo_tensor(
                [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1], [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9]],
                np.arange(12.0),
                [10, 10],
            )
        ),
    ]


def case_coo_dense_dims():
    x = S.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], np.array([[3, 4], [5, 6], [7, 8]]))
    y = S.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], np.array([[3, 4], [5, 6], [7, 8]]), [2, 3, 2])
    return [_coo(x), _coo(y), x.sparse_dim(), x.dense_dim(), x.nnz()]


def case_csr_creation():
    return [
        _csr(S.sparse_csr_tensor([0, 2, 3, 5], [1, 3, 2, 0, 1], [1, 2, 3, 4, 5], [3, 4])),
        _csr(S.sparse_csr_tensor([0, 1, 2], [1, 0], [1.0, 2.0])),
        _csr(S.sparse_csr_tensor([0, 1, 2], [1, 0], [1, 2], [2, 2], dtype="float32")),
        _csr(
            S.sparse_csr_tensor([0, 1, 2, 0, 1, 2], [1, 0, 0, 1], [1.0, 2.0, 3.0, 4.0], [2, 2, 2])
        ),
        _csr(
            S.sparse_csr_tensor(
                paddle.to_tensor([0, 1, 2], "int32"), paddle.to_tensor([1, 0], "int32"), [1.0, 2.0]
            )
        ),
        str(S.sparse_csr_tensor([0, 1, 2], [1, 0], [1.0, 2.0], [2, 2], stop_gradient=False)),
    ]


def case_attributes():
    coo = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1.0, 2.0, 3.0], [3, 3])
    csr = S.sparse_csr_tensor([0, 2, 3, 5], [1, 3, 2, 0, 1], [1, 2, 3, 4, 5], [3, 4])
    d = paddle.to_tensor([[1, 2, 3]])
    out = []
    for t in (coo, csr, d):
        out.append(
            [
                t.is_sparse(),
                t.is_sparse_coo(),
                t.is_sparse_csr(),
                t.is_dense(),
                t.sparse_dim(),
                t.dense_dim(),
                list(t.shape),
                str(t.dtype),
                t.ndim,
                isinstance(t, paddle.Tensor),
            ]
        )
    out.append([coo.nnz(), csr.nnz(), coo.size])
    x = paddle.rand([2, 3, 8])
    y = paddle.rand([2, 3, 8]).to_sparse_csr()
    out.append([x.is_same_shape(y), x.is_same_shape(paddle.rand([2, 5])), coo.is_same_shape(csr)])
    return out


def case_conversions():
    d = paddle.to_tensor([[0, 1, 0, 2], [0, 0, 3, 4]], dtype="float32")
    d3 = paddle.to_tensor([[[0, 1], [0, 2]], [[0, 0], [3, 4]]], dtype="float32")
    coo = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1.0, 2.0, 3.0], [3, 3])
    csr = S.sparse_csr_tensor([0, 2, 3, 5], [1, 3, 2, 0, 1], [1, 2, 3, 4, 5], [3, 4])
    dup = S.sparse_coo_tensor([[0, 0, 1], [1, 1, 2]], [1.0, 2.0, 3.0])
    return [
        _coo(d.to_sparse_coo(2)),
        _coo(d.to_sparse_coo(sparse_dim=1)),
        _coo(d3.to_sparse_coo(2)),
        _coo(paddle.to_tensor([[0, 3], [2, 0]]).to_sparse_coo(2)),
        _csr(d.to_sparse_csr()),
        _csr(d3.to_sparse_csr()),
        _csr(coo.to_sparse_csr()),
        _csr(dup.to_sparse_csr()),
        _csr(d3.to_sparse_coo(3).to_sparse_csr()),
        _coo(csr.to_sparse_coo(2)),
        _coo(csr.to_sparse_coo(1)),
        _coo(coo.to_sparse_coo(2)),
        _csr(csr.to_sparse_csr()),
        paddle.to_tensor([[1.0, 0.0]], stop_gradient=False).to_sparse_coo(2).stop_gradient,
        dup.to_dense(),
    ]


def case_coalesce():
    dup = S.sparse_coo_tensor([[0, 0, 1], [1, 1, 2]], [1.0, 2.0, 3.0])
    unsorted = S.sparse_coo_tensor([[1, 0], [0, 1]], [1.0, 2.0])
    srt = S.sparse_coo_tensor([[0, 1, 1], [1, 0, 2]], [1.0, 2.0, 3.0])
    dd = S.sparse_coo_tensor([[0, 0], [1, 1]], np.array([[1.0, 2.0], [3.0, 4.0]]))
    i32 = S.sparse_coo_tensor(paddle.to_tensor([[0, 0], [1, 1]], "int32"), [1.0, 2.0])
    d = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]])
    csr = S.sparse_csr_tensor([0, 1, 2], [1, 0], [1.0, 2.0], [2, 2])
    return [
        [dup.is_coalesced(), dup.coalesce().is_coalesced(), _coo(dup.coalesce())],
        [unsorted.is_coalesced(), _coo(unsorted.coalesce())],
        srt.is_coalesced(),
        _coo(dd.coalesce()),
        _coo(i32.coalesce()),
        d.to_sparse_coo(2).is_coalesced(),
        csr.to_sparse_coo(2).is_coalesced(),
    ]


def case_values_stop_gradient():
    c = S.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], stop_gradient=False)
    v = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    c2 = S.sparse_coo_tensor([[0, 1], [1, 0]], v)
    return [
        c.values().stop_gradient,
        c.indices().stop_gradient,
        c.to_dense().stop_gradient,
        c2.stop_gradient,
        c2.values().stop_gradient,
    ]


def case_creation_errors():
    coo = S.sparse_coo_tensor
    csr = S.sparse_csr_tensor
    return [
        expect_error(lambda: coo([[0, 3], [1, 0]], [1.0, 2.0], [2, 2])),
        expect_error(lambda: coo([[0, 1], [1, 0]], [1.0, 2.0], [2, 2, 2, 2])),
        expect_error(lambda: coo([[0, 1], [1, 0]], [1.0, 2.0], [2])),
        expect_error(lambda: coo([0, 1], [1.0, 2.0], [2])),
        expect_error(lambda: coo([[0, 1], [1, 0]], [1.0, 2.0, 3.0], [2, 2])),
        expect_error(lambda: coo([[0.0, 1.0], [1.0, 0.0]], [1.0, 2.0], [2, 2])),
        expect_error(lambda: coo(np.zeros((2, 0), "int64"), np.zeros((0,), "float32"), [2, 2])),
        expect_error(lambda: coo([[0, 1], [1, 0]], [True, False])),
        expect_error(lambda: csr([0, 1, 2], [1, 0], [1.0, 2.0], [4])),
        expect_error(lambda: csr([0, 1, 2, 2], [1, 0], [1.0, 2.0], [2, 2])),
        expect_error(lambda: csr([1, 1, 2], [1, 0], [1.0, 2.0], [2, 2])),
        expect_error(lambda: csr([0, 1, 3], [1, 0], [1.0, 2.0], [2, 2])),
        expect_error(lambda: csr([0, 1, 2], [1, 0, 1], [1.0, 2.0], [2, 2])),
        expect_error(lambda: csr([[0, 1, 2]], [1, 0], [1.0, 2.0], [2, 2])),
        expect_error(lambda: csr([0.0, 1, 2], [1, 0], [1.0, 2.0], [2, 2])),
        expect_error(lambda: csr([0, 1, 2], [1, 0], [1.0, 2.0], [2, 2, 1, 1])),
    ]


def case_method_errors():
    d = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]])
    coo = S.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0])
    csr = S.sparse_csr_tensor([0, 1, 2], [1, 0], [1.0, 2.0], [2, 2])
    return [
        expect_error(lambda: d.indices()),
        expect_error(lambda: d.values()),
        expect_error(lambda: d.nnz()),
        expect_error(lambda: d.crows()),
        expect_error(lambda: d.cols()),
        expect_error(lambda: d.coalesce()),
        expect_error(lambda: d.is_coalesced()),
        expect_error(lambda: d.to_dense()),
        expect_error(lambda: coo.crows()),
        expect_error(lambda: csr.indices()),
        expect_error(lambda: csr.coalesce()),
        expect_error(lambda: csr.is_coalesced()),
        expect_error(lambda: d.to_sparse_coo(3)),
        expect_error(lambda: d.to_sparse_coo(0)),
        expect_error(lambda: d.to_sparse_coo(1.0)),
        expect_error(lambda: paddle.to_tensor([1.0, 0.0]).to_sparse_csr()),
        expect_error(lambda: paddle.rand([2, 3, 8, 1]).to_sparse_csr()),
        expect_error(lambda: d.is_same_shape([2, 2])),
    ]


# -- math ----------------------------------------------------------------------------------------
F = S.nn.functional
X = [[0, -1, 0, 2], [0, 0, -3, 0], [4, 5, 0, 0]]
Y = [[0, 0, 0, -2], [0, 2, -3, 0], [2, 3, 4, 8]]


def _parts(x):
    if x.is_sparse_coo():
        return [x.indices(), x.values(), x.to_dense(), list(x.shape), x.stop_gradient]
    return [x.crows(), x.cols(), x.values(), x.to_dense(), list(x.shape), x.stop_gradient]


def _pair(fmt):
    x = paddle.to_tensor(X, "float32")
    y = paddle.to_tensor(Y, "float32")
    if fmt == "csr":
        return x.to_sparse_csr(), y.to_sparse_csr()
    return x.to_sparse_coo(2), y.to_sparse_coo(2)


def case_unary():
    x = paddle.to_tensor([[-0.5, 0.0, 0.25], [0.0, 0.75, 0.0]]).to_sparse_coo(2)
    c = paddle.to_tensor([[-0.5, 0.0, 0.25], [0.0, 0.75, 0.0]]).to_sparse_csr()
    ops = ["sin", "tan", "asin", "atan", "sinh", "tanh", "asinh", "atanh", "square", "log1p"]
    ops += ["abs", "neg", "expm1", "rad2deg", "deg2rad"]
    out = [_parts(getattr(S, op)(t)) for op in ops for t in (x, c)]
    out.append(_parts(S.sqrt(paddle.to_tensor([[0.0, 4.0], [9.0, 0.0]]).to_sparse_coo(2))))
    out.append(_parts(S.sqrt(paddle.to_tensor([[0, 4]]).to_sparse_csr())))
    out.append(_parts(S.pow(x, 2)))
    out.append(_parts(S.abs(S.sparse_coo_tensor([[0, 1]], [1.0, -2.0], stop_gradient=False))))
    out.append(_parts(F.relu(x)))
    out.append(_parts(F.relu6(paddle.to_tensor([-2.0, 0, 8]).to_sparse_coo(1))))
    out.append(_parts(F.leaky_relu(c, 0.5)))
    out.append(_parts(S.nn.ReLU()(c)))
    out.append(_parts(S.nn.LeakyReLU(0.1)(x)))
    out.append(_parts(S.nn.ReLU6()(x)))
    return out


def case_isnan_cast_mask_as():
    nan = paddle.to_tensor(np.array([[[0.0, 0], [1.0, 2.0]], [[0.0, 0], [3.0, np.nan]]]))
    a = paddle.to_tensor([[0, -1.0], [2, 0]]).to_sparse_coo(2)
    dense_dims = paddle.to_tensor([[0, 1.0], [0, 0]]).to_sparse_coo(1)
    csr = S.sparse_csr_tensor([0, 2, 3, 5], [1, 3, 2, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0], [3, 4])
    full = paddle.arange(12, dtype="float32").reshape([3, 4])
    return [
        _parts(S.isnan(nan.to_sparse_coo(3))),
        _parts(S.isnan(nan.reshape([4, 2]).to_sparse_csr())),
        _parts(S.isnan(S.sparse_coo_tensor([[0, 1]], [1.0, -2.0], stop_gradient=False))),
        _parts(S.cast(paddle.to_tensor([-2, 0, 1]).to_sparse_coo(1), "int32", "float64")),
        S.cast(a, "int32", "float32").indices(),
        _parts(S.cast(a, value_dtype="float64")),
        _parts(S.cast(csr, "int32", "float16")),
        _parts(S.mask_as(full, csr)),
        _parts(S.mask_as(full[:2, :2], a)),
        _parts(S.mask_as(paddle.ones([2, 2]), dense_dims)),
    ]


def case_binary():
    out = []
    for fmt in ("coo", "csr"):
        x, y = _pair(fmt)
        for op in ("add", "subtract", "multiply", "divide"):
            out.append(_parts(getattr(S, op)(x, y)))
        out.append(_parts(S.multiply(x, 2.0)))
        out.append(_parts(S.divide(x, 2.0)))
    x = paddle.to_tensor(X, "float32").to_sparse_coo(1)
    y = paddle.to_tensor(Y, "float32").to_sparse_coo(1)
    out.append(_parts(S.add(x, y)))
    return out


def case_math_errors():
    x, y = _pair("coo")
    c, _ = _pair("csr")
    b = paddle.to_tensor([[0, -1.0, 3], [2, 0, 1]]).to_sparse_coo(2)
    i = paddle.to_tensor([[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]).to_sparse_coo(2)
    return [
        expect_error(lambda: S.add(x, 2.0)),
        expect_error(lambda: S.subtract(x, 2.0)),
        expect_error(lambda: S.add(x, paddle.to_tensor(Y, "float32"))),
        expect_error(lambda: S.add(x, c)),
        expect_error(lambda: S.add(x, b)),
        expect_error(lambda: S.add(x, i)),
        expect_error(lambda: S.sin(paddle.to_tensor([1.0]))),
        expect_error(lambda: S.mask_as(paddle.ones([3, 4], "float64"), x)),
    ]


# -- reshape, transpose, slice, sum, softmax -------------------------------------------------------
D3 = [[[0, 1, 0], [2, 0, 3]], [[4, 0, 0], [0, 0, 5]]]
M = [[0.0, 0.0, 0.0], [1.0, 0.0, 2.0], [0, 0, 0]]


def case_reshape_transpose_slice():
    d = paddle.to_tensor(D3, "float32")
    c = d.to_sparse_coo(3)
    m = paddle.to_tensor(M)
    return [
        _parts(S.reshape(c, [3, 4])),
        _parts(S.reshape(c, [0, -1])),
        _parts(S.reshape(d.to_sparse_coo(2), [4, 3])),
        _parts(S.reshape(d.to_sparse_csr(), [4, 3])),
        _parts(S.transpose(c, [2, 0, 1])),
        _parts(S.transpose(d.to_sparse_csr(), [0, 2, 1])),
        _parts(S.slice(c, [0, 2], [1, 1], [2, 3])),
        _parts(S.slice(c, [2], [-2], [10])),
        _parts(S.slice(d.to_sparse_csr(), [1], [1], [2])),
        _parts(S.slice(m.to_sparse_coo(2), [0], [1], [2])),
        _parts(S.slice(m.to_sparse_csr(), [0, 1], [1, 1], [3, 3])),
        expect_error(lambda: S.reshape(c, [5, 3])),
        expect_error(lambda: S.slice(c, [0, 1], [1], [2])),
    ]


def case_sum():
    d = paddle.to_tensor(D3, "float32")
    c = d.to_sparse_coo(3)
    dx = paddle.to_tensor([[-2.0, 0.0], [1.0, 2.0]])
    s1 = dx.to_sparse_coo(1)
    m = paddle.to_tensor(M)
    return [
        _parts(S.sum(c)),
        _parts(S.sum(c, axis=0)),
        _parts(S.sum(c, axis=-1)),
        _parts(S.sum(c, axis=1, keepdim=True)),
        _parts(S.sum(c, axis=1, dtype="float64")),
        _parts(S.sum(d.to_sparse_coo(2), axis=2)),
        _parts(S.sum(paddle.to_tensor([[1.0, -1.0], [0, 0]]).to_sparse_coo(2), axis=1)),
        _parts(S.sum(s1)),
        _parts(S.sum(s1, axis=0)),
        _parts(S.sum(s1, axis=-1)),
        _parts(S.sum(s1, axis=1, keepdim=True)),
        _parts(S.sum(s1, axis=0, keepdim=True)),
        _parts(S.sum(dx.to_sparse_coo(2), keepdim=True)),
        _parts(S.sum(d[0].to_sparse_csr(), axis=-1)),
        _parts(S.sum(d[0].to_sparse_csr())),
        _parts(S.sum(m.to_sparse_csr(), axis=-1)),
        _parts(S.sum(m.to_sparse_csr(), axis=-1, keepdim=True)),
        expect_error(lambda: S.sum(d[0].to_sparse_csr(), axis=0)),
        expect_error(lambda: S.sum(d.astype("bool").to_sparse_coo(3), axis=0)),
        expect_error(lambda: paddle.to_tensor([[True, False]]).to_sparse_csr()),
    ]


def case_softmax():
    d = paddle.to_tensor(D3, "float32")
    paddle.seed(2022)
    mask = paddle.to_tensor(np.array([[1, 1, 0, 1], [0, 1, 1, 1], [1, 0, 0, 1]], "float32"))
    x = paddle.to_tensor(np.linspace(-1, 2, 12).reshape(3, 4).astype("float32")) * mask
    sm = S.nn.Softmax()
    return [
        _parts(sm(d.to_sparse_csr())),
        _parts(sm(d.to_sparse_coo(3))),
        _parts(sm(x.to_sparse_csr())),
        _parts(sm(x.to_sparse_coo(2))),
        _parts(S.nn.functional.softmax(d[0].to_sparse_csr(), axis=-1)),
        S.nn.functional.softmax(
            S.sparse_csr_tensor([0, 1, 2], [1, 0], [1.0, 2.0], stop_gradient=False)
        ).stop_gradient,
        expect_error(lambda: S.nn.functional.softmax(d[0].to_sparse_csr(), axis=0)),
    ]
