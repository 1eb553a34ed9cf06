"""paddle.sparse core: COO / CSR creation (shape inference, dtypes, dense dims, batched CSR),
the sparse Tensor methods on sparse and dense Tensors, conversions between layouts,
coalesce, printing, and Paddle's errors. Sparse Tensors are returned through their parts
(``indices()``, ``values()``, ``to_dense()``, ``str``): Paddle's ``numpy()`` of one crashes."""

import numpy as np
from _util import expect_error

import paddle

S = paddle.sparse


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
