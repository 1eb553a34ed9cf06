"""Search and sort ops: topk, sort/argsort, kthvalue, mode, searchsorted, bucketize,
index_sample, nonzero, masked_select, unique, unique_consecutive."""

from _util import backprop, expect_error, randn

import paddle

X = [[3.0, 1.0, 2.0, 8.0], [0.0, 5.0, 4.0, -1.0]]


def case_topk():
    x = paddle.to_tensor(X)
    i = paddle.to_tensor([1, 5, 3, 7])
    return [
        list(paddle.topk(x, 2)),
        list(paddle.topk(x, 1, axis=0, largest=False)),
        list(paddle.topk(x, 3, axis=-1, largest=False)),
        list(paddle.topk(i, 2)),
        list(paddle.topk(x, paddle.to_tensor(2))),
        list(x.topk(1)),
        list(paddle.topk(paddle.to_tensor(3.0), 1)),
        list(paddle.topk(paddle.to_tensor(randn(2, 3, 4), dtype="float64"), 2, axis=1)),
    ]


def case_topk_grad():
    return backprop(lambda x: paddle.topk(x, 2), X) + backprop(
        lambda x: paddle.topk(x, 1, axis=0, largest=False), X
    )


def case_topk_errors():
    x = paddle.to_tensor(X)
    return [
        expect_error(lambda: paddle.topk(x, 5)),
        expect_error(lambda: paddle.topk(x, 0)),
        expect_error(lambda: paddle.topk(paddle.to_tensor([True, False]), 1)),
        expect_error(lambda: paddle.topk(x, 1, axis=2)),
    ]


def case_sort_argsort():
    x = paddle.to_tensor(X)
    t = paddle.to_tensor([1, 1, 0, 1])
    nan = paddle.to_tensor([1.0, float("nan"), 0.0, -2.0])
    return [
        paddle.sort(x),
        paddle.sort(x, axis=0, descending=True),
        x.sort(),
        x.argsort(),
        paddle.argsort(x, axis=0, descending=True),
        paddle.argsort(t, stable=True),
        paddle.argsort(t, descending=True, stable=True),
        paddle.sort(nan),
        paddle.sort(nan, descending=True),
        paddle.argsort(nan),
        paddle.sort(paddle.to_tensor(3.0)),
        paddle.argsort(paddle.to_tensor(3.0)),
        paddle.sort(paddle.zeros([0, 3]), axis=0),
        paddle.argsort(paddle.zeros([2, 0])),
        paddle.sort(paddle.to_tensor([3, 1, 2], dtype="int32"), descending=True),
        paddle.msort(x),
    ]


def case_sort_grad():
    return backprop(lambda x: paddle.sort(x, axis=1), X) + backprop(
        lambda x: paddle.sort(x, axis=0, descending=True), X
    )


def case_sort_errors():
    x = paddle.to_tensor(X)
    return [
        expect_error(lambda: paddle.sort(x, axis=2)),
        expect_error(lambda: paddle.argsort(x, axis=-3)),
    ]


def case_kthvalue_mode():
    x = paddle.to_tensor(X)
    m = paddle.to_tensor([[1.0, 2.0, 2.0, 3.0, 3.0], [5.0, 5.0, 4.0, 4.0, 1.0]])
    return [
        list(paddle.kthvalue(x, 2)),
        list(paddle.kthvalue(x, 1, axis=0, keepdim=True)),
        list(x.kthvalue(3, axis=-1)),
        list(paddle.kthvalue(paddle.to_tensor(3.0), 1)),
        list(paddle.kthvalue(paddle.to_tensor([3, 1, 2]), 1)),
        list(paddle.mode(m)),
        list(paddle.mode(m, axis=0, keepdim=True)),
        list(paddle.mode(paddle.to_tensor([3, 1, 3, 1, 2]))),
        list(paddle.mode(paddle.to_tensor([1.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0]))),
        list(m.mode(-1)),
    ]


def case_kthvalue_mode_grad():
    m = [[1.0, 2.0, 2.0, 3.0, 3.0], [5.0, 5.0, 4.0, 4.0, 1.0]]
    return backprop(lambda x: paddle.kthvalue(x, 2), X) + backprop(lambda x: paddle.mode(x), m)


def case_kthvalue_errors():
    x = paddle.to_tensor(X)
    return [
        expect_error(lambda: paddle.kthvalue(x, 5)),
        expect_error(lambda: paddle.kthvalue(x, 0)),
    ]


def case_searchsorted_bucketize():
    s = paddle.to_tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
    v = paddle.to_tensor([[3, 6, 9], [3, 6, 9]])
    s1 = paddle.to_tensor([1.0, 2.0, 3.0])
    return [
        paddle.searchsorted(s, v),
        paddle.searchsorted(s, v, right=True),
        paddle.searchsorted(s, v, out_int32=True),
        paddle.searchsorted(s1, paddle.to_tensor([[2.5, 1.0], [0.0, 4.0]])),
        paddle.searchsorted(s1, paddle.to_tensor(2.0)),
        paddle.searchsorted(s1, paddle.to_tensor([2, 3])),
        paddle.searchsorted(s1, paddle.to_tensor([2.0, 3.0]), side="right"),
        paddle.searchsorted(
            paddle.to_tensor([3.0, 1.0, 2.0]),
            paddle.to_tensor([2.0, 3.0]),
            sorter=paddle.to_tensor([1, 2, 0]),
        ),
        paddle.bucketize(paddle.to_tensor([[1.0, 4.0], [7.0, 0.0]]), s1 * 2 - 1),
        paddle.bucketize(
            paddle.to_tensor([[1.0, 4.0], [7.0, 0.0]]), s1 * 2 - 1, right=True, out_int32=True
        ),
        paddle.to_tensor([1.0, 4.0]).bucketize(s1),
    ]


def case_searchsorted_errors():
    s = paddle.to_tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
    return [
        expect_error(lambda: paddle.searchsorted(s, paddle.to_tensor([[1], [2], [3]]))),
        expect_error(lambda: paddle.bucketize(paddle.to_tensor([1.0]), s)),
    ]


def case_index_sample():
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    i = paddle.to_tensor([[0, 0], [2, 1]])
    return [
        paddle.index_sample(x, i),
        paddle.index_sample(x, paddle.to_tensor([[0, 0], [2, 1]], dtype="int32")),
        x.index_sample(paddle.to_tensor([[2], [0]])),
        paddle.index_sample(paddle.to_tensor([[1, 2], [3, 4]]), paddle.to_tensor([[1], [0]])),
        backprop(lambda t: paddle.index_sample(t, i), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        expect_error(lambda: paddle.index_sample(x, paddle.to_tensor([[0, 0]]))),
        expect_error(lambda: paddle.index_sample(x, paddle.to_tensor([0, 0]))),
        expect_error(lambda: paddle.index_sample(x, paddle.to_tensor([[0.0], [1.0]]))),
    ]


def case_nonzero():
    x = paddle.to_tensor([[3.0, 0.0, 2.0], [0.0, 5.0, 4.0]])
    return [
        paddle.nonzero(x),
        list(paddle.nonzero(x, as_tuple=True)),
        paddle.nonzero(paddle.to_tensor([0, 1, 2])),
        list(paddle.nonzero(paddle.to_tensor([0, 1, 2]), as_tuple=True)),
        paddle.nonzero(paddle.zeros([2, 0])),
        paddle.nonzero(paddle.zeros([2, 3])),
        paddle.nonzero(paddle.to_tensor([True, False, True])),
        x.nonzero(),
        paddle.argwhere(x),
        expect_error(lambda: paddle.nonzero(paddle.to_tensor(3.0))),
    ]


def case_masked_select():
    x = paddle.to_tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    y = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    r = paddle.masked_select(y, paddle.to_tensor([[True, False, True], [True, True, False]]))
    (r * paddle.to_tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    return [
        paddle.masked_select(x, x > 2),
        x.masked_select(x < 0),
        paddle.masked_select(x, paddle.to_tensor([True, False, True])),
        paddle.masked_select(paddle.to_tensor(2.0), paddle.to_tensor(True)),
        paddle.masked_select(paddle.to_tensor([[1, 2], [3, 4]]), paddle.to_tensor([False, True])),
        r,
        y.grad,
        expect_error(lambda: paddle.masked_select(x, paddle.to_tensor([1, 0, 1]))),
        expect_error(lambda: paddle.masked_select(x, paddle.ones([3, 3], "bool"))),
    ]


def case_unique():
    x = paddle.to_tensor([2, 3, 3, 1, 5, 3])
    x2 = paddle.to_tensor([[2, 1, 3], [3, 0, 1], [2, 1, 3]])
    f = paddle.to_tensor([1.5, 2.0, 1.5], stop_gradient=False)
    return [
        list(paddle.unique(x, return_index=True, return_inverse=True, return_counts=True)),
        list(
            paddle.unique(
                x, return_index=True, return_inverse=True, return_counts=True, dtype="int32"
            )
        ),
        paddle.unique(x2),
        list(paddle.unique(x2, return_index=True, return_inverse=True, return_counts=True, axis=0)),
        list(paddle.unique(x2, axis=1, return_inverse=True)),
        paddle.unique(x, sorted=False),
        list(paddle.unique(paddle.to_tensor(3.0), return_inverse=True)),
        list(
            paddle.unique(
                paddle.zeros([0]), return_inverse=True, return_counts=True, return_index=True
            )
        ),
        paddle.unique(f),
        x2.unique(return_counts=True)[1],
    ]


def case_unique_consecutive():
    return [
        list(
            paddle.unique_consecutive(
                paddle.to_tensor([1, 1, 2, 2, 3, 1, 1]), return_inverse=True, return_counts=True
            )
        ),
        list(
            paddle.unique_consecutive(
                paddle.to_tensor([[1, 1], [1, 1], [2, 3]]),
                axis=0,
                return_inverse=True,
                return_counts=True,
            )
        ),
        paddle.unique_consecutive(paddle.to_tensor([[1.0, 1.0], [2.0, 2.0]])),
        list(
            paddle.unique_consecutive(
                paddle.to_tensor([1, 1, 2]), return_counts=True, dtype="int32"
            )
        ),
    ]
