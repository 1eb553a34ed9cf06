"""paddle.sparse: Paddle's exception types and messages (measured on Paddle 3.3.1) for bad
sparse creation and sparse Tensor methods; values are checked by tests/cases/sparse_core.py."""

import numpy as np
import pytest

import paddle

S = paddle.sparse
D = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]])


def _coo():
    return S.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0])


def _csr():
    return S.sparse_csr_tensor([0, 1, 2], [1, 0], [1.0, 2.0], [2, 2])


ERRORS = [
    (
        lambda: S.sparse_coo_tensor([[0, 3], [1, 0]], [1.0, 2.0], [2, 2]),
        ValueError,
        r"the minimum shape required is \[np.int64\(4\), np.int64\(2\)\], but get \[2, 2\]",
    ),
    (
        lambda: S.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 2, 2, 2]),
        ValueError,
        r"the number of dimensions\(len\(shape\) must be sparse_dim\(2\) \+ dense_dim\(0\), "
        r"but get 4",
    ),
    (lambda: S.sparse_coo_tensor([0, 1], [1.0, 2.0], [2]), ValueError, "'indices' must be 2-D"),
    (
        lambda: S.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0, 3.0], [2, 2]),
        ValueError,
        "the indices and values must have same number of non-zero, but get 2 and 3",
    ),
    (
        lambda: S.sparse_coo_tensor([[0.0, 1.0], [1.0, 0.0]], [1.0, 2.0]),
        TypeError,
        "the dtype of indices must be 'int8' or 'int16' or 'int32' or 'int64'",
    ),
    (
        lambda: S.sparse_coo_tensor(np.zeros((2, 0), "int64"), np.zeros((0,), "float32"), [2, 2]),
        ValueError,
        r"Cannot perform reduction along an axis \(1\) that has a size of 0",
    ),
    (
        lambda: S.sparse_coo_tensor([[0, 1], [1, 0]], [True, False]),
        RuntimeError,
        "kernel `sparse_coo_tensor` is not registered",
    ),
    (
        lambda: S.sparse_csr_tensor([0, 1, 2], [1, 0], [1.0, 2.0], [4]),
        ValueError,
        r"SparseCsrTensor only support 2-D or 3-D matrix. but get shape \[4\]",
    ),
    (
        lambda: S.sparse_csr_tensor([0, 1, 2, 2], [1, 0], [1.0, 2.0], [2, 2]),
        ValueError,
        r"The length\(4\) of crows must be equal to the rows\(2\)\+1 of matrix",
    ),
    (
        lambda: S.sparse_csr_tensor([1, 1, 2], [1, 0], [1.0, 2.0], [2, 2]),
        ValueError,
        "the 0th value of crows must be 0",
    ),
    (
        lambda: S.sparse_csr_tensor([0, 1, 3], [1, 0], [1.0, 2.0], [2, 2]),
        ValueError,
        "the last value of crows must be equal the number of non-zero",
    ),
    (
        lambda: S.sparse_csr_tensor([0, 1, 2], [1, 0, 1], [1.0, 2.0], [2, 2]),
        ValueError,
        "the length of cols must be same as length of values",
    ),
    (
        lambda: S.sparse_csr_tensor([[0, 1, 2]], [1, 0], [1.0, 2.0], [2, 2]),
        ValueError,
        "The 'crows', 'cols' and 'values' must be 1-D",
    ),
    (lambda: D.indices(), SystemError, "only effective for SparseCooTensor"),
    (lambda: _csr().indices(), SystemError, "only effective for SparseCooTensor"),
    (lambda: D.nnz(), SystemError, "only effective for SparseCooTensor or SparseCsrTensor"),
    (lambda: _coo().crows(), SystemError, "only effective for SparseCsrTensor"),
    (lambda: D.cols(), SystemError, "only effective for SparseCsrTensor"),
    (lambda: D.values(), NotImplementedError, r"The kernel of \(values\)"),
    (lambda: D.to_dense(), NotImplementedError, r"The kernel of \(to_dense\)"),
    (lambda: _csr().coalesce(), NotImplementedError, r"The kernel of \(coalesce\)"),
    (lambda: D.is_coalesced(), TypeError, "is_coalesced only support sparse coo tensor"),
    (lambda: D.to_sparse_coo(3), ValueError, "sparse_dim must be less than the size"),
    (lambda: D.to_sparse_coo(0), ValueError, "sparse_dim must be >0"),
    (lambda: D.to_sparse_coo(1.0), TypeError, r"argument \(position 2\) must be long"),
    (
        lambda: paddle.to_tensor([1.0, 0.0]).to_sparse_csr(),
        ValueError,
        "SparseCsrTensor only support 2-D or 3-D Tensor",
    ),
    (lambda: D.is_same_shape([2, 2]), ValueError, "must be Tensor, but got list"),
    (
        lambda: S.add(_coo(), 2.0),
        ValueError,
        r"add\(\): argument 'y' \(position 1\) must be Tensor, but got float",
    ),
    (lambda: S.add(_coo(), D), NotImplementedError, r"Not support Sparse \+ Dense"),
    (lambda: S.multiply(_coo(), _csr()), NotImplementedError, r"The kernel of \(multiply\)"),
    (lambda: S.sin(D), NotImplementedError, r"The kernel of \(sin\)"),
    (
        lambda: S.mask_as(paddle.ones([2, 2], "float64"), _coo()),
        ValueError,
        r"retrieve \(float32\) does not match the type of data \(float64\)",
    ),
    (
        lambda: S.reshape(_coo(), [3, 3]),
        ValueError,
        r"The input tensor X'size must be equal to the capacity of 'shape'.*\[3, 3\]",
    ),
    (
        lambda: S.slice(_coo(), [0, 1], [1], [2]),
        ValueError,
        r"The length of axes \(2\) and length of starts \(1\) should be same",
    ),
    (lambda: S.sum(_csr(), axis=0), NotImplementedError, "SumCsrKernel only support None or -1"),
    (
        lambda: S.nn.functional.softmax(_csr(), axis=0),
        NotImplementedError,
        "only support axis=-1 for softmax",
    ),
    (
        lambda: paddle.to_tensor([[True, False]]).to_sparse_csr(),
        RuntimeError,
        "kernel `dense_to_csr` is not registered",
    ),
    (
        lambda: paddle.to_tensor([[True, False]]).to_sparse_coo(2),
        RuntimeError,
        "kernel `dense_to_coo` is not registered",
    ),
    # paddle-compat raises where Paddle 3.3.1 returns inconsistent results
    (lambda: S.sum(_coo(), axis=[0, 1]), NotImplementedError, "over several axes"),
    (lambda: S.transpose(D.to_sparse_coo(1), [1, 0]), NotImplementedError, "dense dims"),
    (lambda: S.slice(D.to_sparse_coo(1), [1], [0], [1]), NotImplementedError, "dense dim"),
    (lambda: S.reshape(D.to_sparse_coo(1), [1, 4]), NotImplementedError, "dense dims"),
    (
        lambda: S.sum(paddle.ones([2, 2, 2]).to_sparse_csr(), axis=-1),
        NotImplementedError,
        "3-D CSR",
    ),
    (
        lambda: S.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], np.ones((3, 2))).to_sparse_csr(),
        ValueError,
        "dense dims has no CSR form",
    ),
]


@pytest.mark.parametrize("fn, exc, msg", ERRORS)
def test_errors(fn, exc, msg):
    with pytest.raises(exc, match=msg):
        fn()


def test_sparse_is_a_tensor_and_prints_as_paddle():
    x = _coo()
    assert isinstance(x, paddle.Tensor) and x.is_sparse() and not x.is_dense()
    assert str(x) == (
        "Tensor(shape=[2, 2], dtype=paddle.float32, place=Place(cpu), stop_gradient=True, \n"
        "       indices=[[0, 1],\n"
        "                [1, 0]], \n"
        "       values=[1., 2.])"
    )
    assert not D.is_sparse() and D.sparse_dim() == 0 and D.dense_dim() == 2


def test_dense_array_built_only_when_read():
    x = _coo()
    assert x.__dict__["_sp_dense"] is None
    assert list(x.shape) == [2, 2] and x.nnz() == 2 and str(x.dtype) == "paddle.float32"
    assert x.__dict__["_sp_dense"] is None
    np.testing.assert_array_equal(x.numpy(), [[0.0, 1.0], [2.0, 0.0]])
