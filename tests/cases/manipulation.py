"""Manipulation ops: cast/reshape/transpose/squeeze/concat/split/expand/tile/flip/roll,
gather/scatter/index_*/take/put_along_axis, where, masked_*, repeat_interleave, meshgrid,
crop, tensordot, diagonal, view. Values, dtypes, 0-d/empty shapes, gradients, error types."""

import numpy as np
from _api_util import t as _t
from _util import backprop, expect_error, randn

import paddle


def case_cast():
    x = paddle.to_tensor([[-1.7, 0.0, 2.5], [3.9, -0.2, 1.0]])
    b = paddle.to_tensor([True, False])
    return [
        paddle.cast(x, "int32"),
        paddle.cast(x, paddle.float64),
        x.astype("int64"),
        x.astype(np.float16),
        x.cast("bool"),
        paddle.cast(b, "float32"),
        paddle.cast(paddle.to_tensor(3), "float32"),
        paddle.cast(paddle.zeros([0, 2]), "int64"),
        expect_error(lambda: paddle.cast(x, "foo")),
    ]


def case_cast_grad():
    return backprop(lambda x: paddle.cast(x, "float64") * 2, randn(2, 3))


def case_cast_inplace():
    x = paddle.to_tensor([1.5, 2.5])
    y = x.cast_("int64")
    leaf = paddle.to_tensor([1.0], stop_gradient=False)
    return [x, y, expect_error(lambda: leaf.cast_("float64"))]


def case_reshape():
    x = _t(2, 3, 4)
    return [
        paddle.reshape(x, [0, -1]),
        paddle.reshape(x, (4, 6)),
        x.reshape([-1]),
        x.reshape(4, 6),
        paddle.reshape(x, [paddle.to_tensor(4), 6]),
        paddle.reshape(x, paddle.to_tensor([6, 4])),
        paddle.reshape(paddle.to_tensor(3.0), [1]),
        paddle.reshape(paddle.to_tensor([3.0]), []),
        paddle.reshape(paddle.zeros([0, 3]), [-1, 3]),
        paddle.reshape(paddle.zeros([0, 3]), [0, -1]),
        paddle.reshape(x, [2, 0, 2, 2]),
        paddle.reshape(paddle.arange(6), [3, 2]),
    ]


def case_reshape_errors():
    x = _t(2, 3, 4)
    return [
        expect_error(lambda: paddle.reshape(x, [-1, -1])),
        expect_error(lambda: paddle.reshape(x, [5, -1])),
        expect_error(lambda: paddle.reshape(x, [2, 3, 5])),
    ]


def case_reshape_grad_and_inplace():
    out = backprop(lambda x: x.reshape([3, 2]).sin(), randn(2, 3))
    y = paddle.arange(6).astype("float32")
    r = y.reshape_([2, 3])
    leaf = paddle.ones([2])
    leaf.stop_gradient = False
    return [out, y, r.shape, expect_error(lambda: leaf.reshape_([2, 1]))]


def case_view():
    x = paddle.arange(6, dtype="float32")
    return [
        x.view([2, 3]),
        x.view(3, 2),
        paddle.view(x, [-1, 2]),
        x.view("int32"),
        x.view(paddle.float16),
        paddle.view_as(x, paddle.ones([3, 2])),
    ]


def case_transpose_family():
    x = _t(2, 3, 4)
    return [
        paddle.transpose(x, [2, 0, 1]),
        x.transpose([-1, 0, 1]),
        x.T,
        paddle.moveaxis(x, 0, 2),
        paddle.moveaxis(x, [0, 1], [-1, -2]),
        paddle.swapaxes(x, 0, 2),
        x.swapaxes(0, 1),
        paddle.swapdims(x, 1, 2),
        paddle.transpose(paddle.to_tensor(1.0), []),
        paddle.transpose(paddle.zeros([0, 2]), [1, 0]),
    ]


def case_transpose_errors():
    x = _t(2, 3, 4)
    return [
        expect_error(lambda: x.transpose([0, 1, 1])),
        expect_error(lambda: x.transpose([0, 1, 3])),
        expect_error(lambda: paddle.moveaxis(x, 0, 3)),
        expect_error(lambda: paddle.moveaxis(x, [0, 0], [1, 2])),
    ]


def case_transpose_grad():
    return backprop(lambda x: paddle.moveaxis(x.transpose([1, 0, 2]), 2, 0), randn(2, 3, 4))


def case_squeeze_unsqueeze_flatten():
    z = paddle.zeros([1, 2, 1])
    x = _t(2, 3, 4)
    return [
        paddle.squeeze(z),
        paddle.squeeze(z, 0),
        paddle.squeeze(z, 1),
        paddle.squeeze(z, [0, 2]),
        paddle.squeeze(z, (0, -1)),
        paddle.squeeze(paddle.to_tensor(1.0)),
        paddle.squeeze(paddle.to_tensor(1.0), 0),
        paddle.unsqueeze(x, [0, 3]),
        paddle.unsqueeze(x, [-1, 0]),
        paddle.unsqueeze(x, -1),
        paddle.unsqueeze(x, [1, 1]),
        paddle.unsqueeze(paddle.to_tensor(2.0), 0),
        paddle.unsqueeze(x, paddle.to_tensor(1)),
        paddle.flatten(x),
        paddle.flatten(x, 1),
        paddle.flatten(x, -2, -1),
        paddle.flatten(paddle.to_tensor(1.0)),
        paddle.flatten(paddle.zeros([2, 0, 3]), 0, 1),
        x.unflatten(1, [3, 1]),
        paddle.unflatten(x, -1, [2, -1]),
    ]


def case_squeeze_family_errors_and_inplace():
    x = _t(2, 3)
    y = paddle.zeros([1, 3, 1])
    y.squeeze_()
    w = paddle.zeros([3])
    w.unsqueeze_(0)
    v = paddle.zeros([2, 3, 4])
    v.flatten_(1, 2)
    return [
        expect_error(lambda: paddle.squeeze(x, 5)),
        expect_error(lambda: paddle.unsqueeze(x, 5)),
        expect_error(lambda: paddle.flatten(x, 1, 0)),
        expect_error(lambda: paddle.flatten(x, 0, 5)),
        y,
        w,
        v,
    ]


def case_squeeze_grad():
    return backprop(
        lambda x: paddle.unsqueeze(paddle.squeeze(x, 1), [0, 2]).flatten(), randn(2, 1, 3)
    )


def case_concat_stack():
    a, b = _t(2, 3), _t(2, 3, seed=1)
    return [
        paddle.concat([a, b]),
        paddle.concat([a, b], axis=1),
        paddle.concat((a, b), axis=-1),
        paddle.concat([a, b], axis=paddle.to_tensor(1)),
        paddle.concat([a, paddle.zeros([0, 3])]),
        paddle.concat([paddle.arange(2), paddle.arange(3)]),
        paddle.stack([a, b]),
        paddle.stack([a, b], axis=-1),
        paddle.stack([a, b], 1),
        paddle.stack([paddle.to_tensor(1.0), paddle.to_tensor(2.0)]),
        paddle.hstack([a, b]),
        paddle.vstack([paddle.ones([3]), paddle.zeros([3])]),
        paddle.dstack([a, b]),
        paddle.column_stack([paddle.ones([3]), paddle.zeros([3])]),
        paddle.row_stack([a, b]),
    ]


def case_concat_stack_errors():
    a = _t(2, 3)
    return [
        expect_error(lambda: paddle.concat([a, a.astype("float64")])),
        expect_error(lambda: paddle.concat([a, a.astype("int64")])),
        expect_error(lambda: paddle.concat([a, paddle.ones([2, 2])], axis=0)),
        expect_error(lambda: paddle.concat([a], axis=3)),
        expect_error(lambda: paddle.concat([paddle.to_tensor(1.0), paddle.to_tensor(2.0)])),
        expect_error(lambda: paddle.stack([a, a[:1]])),
        expect_error(lambda: paddle.stack([a, a], axis=3)),
        expect_error(lambda: paddle.stack([a, a.astype("float64")])),
    ]


def case_concat_stack_grad():
    return [
        backprop(lambda a, b: paddle.concat([a, b * 2], axis=1), randn(2, 3), randn(2, 2, seed=1)),
        backprop(lambda a, b: paddle.stack([a, b], axis=1), randn(2, 3), randn(2, 3, seed=1)),
    ]


def case_split_family():
    x = paddle.arange(12, dtype="float32").reshape([2, 6])
    return [
        paddle.split(x, 3, axis=1),
        paddle.split(x, [1, -1], axis=1),
        paddle.split(x, (2, 0, 4), axis=-1),
        paddle.split(x, [paddle.to_tensor(2), 4], axis=1),
        paddle.split(x, 2),
        x.split(2, axis=paddle.to_tensor(1)),
        paddle.chunk(x, 3, axis=1),
        paddle.unbind(x, 1),
        paddle.unbind(x, axis=-2),
        paddle.unstack(x, 0),
        paddle.tensor_split(x, 4, axis=1),
        paddle.tensor_split(x, [1, 4], axis=1),
        paddle.hsplit(x, 2),
        paddle.vsplit(x, [1]),
        paddle.split(paddle.zeros([0, 4]), 2, axis=1),
    ]


def case_split_errors():
    x = paddle.arange(12, dtype="float32").reshape([2, 6])
    return [
        expect_error(lambda: paddle.split(x, 4, axis=1)),
        expect_error(lambda: paddle.split(x, [1, 1], axis=1)),
        expect_error(lambda: paddle.split(x, [-1, -1], axis=1)),
        expect_error(lambda: paddle.chunk(x, 4, axis=1)),
        expect_error(lambda: paddle.unstack(x, 1, num=2)),
    ]


def case_split_grad():
    return [
        backprop(lambda x: paddle.split(x, [1, -1], axis=1), randn(2, 3)),
        backprop(lambda x: paddle.unbind(x, 0), randn(2, 3)),
    ]


def case_expand_family():
    x = _t(2, 3)
    i = paddle.to_tensor([[1], [2]], dtype="int32")
    return [
        paddle.expand(x, [2, 2, 3]),
        paddle.expand(x, [2, -1, -1]),
        x.expand(3, 2, 3),
        paddle.expand(i, [2, 4]),
        paddle.expand(paddle.to_tensor(1.0), [2]),
        paddle.expand_as(i, paddle.ones([3, 2, 4])),
        paddle.broadcast_to(x, [2, 2, 3]),
        paddle.broadcast_to(x, [2, -1, 3]),
        paddle.broadcast_tensors([x, paddle.ones([1, 1, 3])]),
        paddle.tile(x, [2]),
        paddle.tile(x, [2, 1, 2]),
        paddle.tile(x, (2, 2)),
        paddle.tile(x, paddle.to_tensor([2, 2])),
        paddle.tile(x, [0, 2]),
        paddle.tile(paddle.to_tensor(5), [3]),
    ]


def case_expand_errors():
    x = _t(2, 3)
    return [
        expect_error(lambda: paddle.expand(x, [4, 3])),
        expect_error(lambda: paddle.expand(x, [3])),
        expect_error(lambda: paddle.expand(x, [-1, 2, 3])),
        expect_error(lambda: paddle.broadcast_tensors([x, paddle.ones([4, 3])])),
        expect_error(lambda: paddle.broadcast_tensors([x, paddle.ones([2, 3], dtype="int32")])),
        expect_error(lambda: paddle.tile(x, [-1, 2])),
    ]


def case_expand_grad():
    return [
        backprop(lambda x: paddle.expand(x, [3, 2, 3]), randn(2, 1)),
        backprop(lambda x: paddle.tile(x, [2, 3]), randn(2, 2)),
        backprop(lambda x, y: paddle.broadcast_tensors([x, y]), randn(2, 1), randn(1, 3, seed=1)),
    ]


def case_flip_roll_rot90_diagonal():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    return [
        paddle.flip(x, 0),
        paddle.flip(x, [0, 1]),
        x.flip(-1),
        paddle.reverse(x, [1]),
        paddle.roll(x, 1),
        paddle.roll(x, [1, -1], [0, 1]),
        paddle.roll(x, 5, axis=1),
        paddle.roll(x, -2, -1),
        paddle.rot90(x),
        paddle.rot90(x, -1),
        paddle.rot90(x, 2, [1, 0]),
        paddle.rot90(x, 5),
        paddle.diagonal(x),
        paddle.diagonal(x, 1),
        paddle.diagonal(x, -1),
        paddle.diagonal(x, -5),
        paddle.diagonal(paddle.ones([2, 3, 4]), 0, -1, 0),
        x.diagonal(offset=2),
        paddle.flip(paddle.to_tensor(1.0), []),
    ]


def case_flip_roll_errors():
    x = paddle.arange(6, dtype="float32").reshape([2, 3])
    return [
        expect_error(lambda: paddle.flip(x, [2])),
        expect_error(lambda: paddle.roll(x, [1, 2], axis=1)),
        expect_error(lambda: paddle.rot90(x, 1, [0, 0])),
        expect_error(lambda: paddle.diagonal(x, 0, 0, 0)),
    ]


def case_flip_roll_grad():
    return [
        backprop(lambda x: paddle.roll(paddle.flip(x, 1), [1], [0]), randn(3, 4)),
        backprop(lambda x: paddle.rot90(x).diagonal(), randn(3, 4)),
    ]


def case_gather_family():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    i = paddle.to_tensor([2, 0])
    return [
        paddle.gather(x, i),
        paddle.gather(x, i, axis=1),
        paddle.gather(x, i, axis=-1),
        paddle.gather(x, paddle.to_tensor(1)),
        paddle.gather(x, paddle.to_tensor([[1], [2]])),
        paddle.gather(x, paddle.to_tensor([1, 2], dtype="int32"), axis=paddle.to_tensor(1)),
        paddle.gather(x, paddle.to_tensor([-1])),
        paddle.gather_nd(x, paddle.to_tensor([[0, 1], [2, 3]])),
        paddle.gather_nd(x, paddle.to_tensor([[1], [2]])),
        paddle.gather_nd(x, paddle.zeros([0, 2], dtype="int64")),
        paddle.gather_nd(x, paddle.zeros([2, 0], dtype="int64")),
        paddle.index_select(x, i, axis=1),
        paddle.index_select(x, paddle.to_tensor([-1])),
        x.index_select(paddle.to_tensor([1, 1]), 0),
        paddle.take_along_axis(x, paddle.to_tensor([[0, 1, 2, 0]]), 0),
        paddle.take_along_axis(x, paddle.to_tensor([[0], [1], [2]]), 1),
        paddle.take_along_axis(x, paddle.to_tensor([[0, 1]]), 1),
        paddle.take_along_axis(x, paddle.to_tensor([[0, 1]]), 1, broadcast=False),
        paddle.take_along_axis(x, paddle.to_tensor([[-1]]), 1),
    ]


def case_gather_errors():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    return [
        expect_error(lambda: paddle.gather(x, paddle.to_tensor([1.0, 2.0]))),
        expect_error(lambda: paddle.index_select(x, paddle.to_tensor([[2, 0]]), axis=1)),
        expect_error(lambda: paddle.index_select(x, paddle.to_tensor([2.0, 0.0]))),
    ]


def case_gather_grad():
    idx = paddle.to_tensor([2, 0, 2])
    return [
        backprop(lambda x: paddle.gather(x, idx), randn(3, 2)),
        backprop(lambda x: paddle.gather_nd(x, paddle.to_tensor([[0, 1], [0, 1]])), randn(2, 3)),
        backprop(lambda x: paddle.index_select(x, idx, axis=1), randn(2, 3)),
        backprop(
            lambda x: paddle.take_along_axis(x, paddle.to_tensor([[0, 0], [1, 2]]), 1), randn(2, 3)
        ),
    ]


def case_scatter_family():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    u = paddle.to_tensor([[1.0, 1, 1, 1], [2, 2, 2, 2]])
    return [
        paddle.scatter(x, paddle.to_tensor([2, 0]), u),
        paddle.scatter(x, paddle.to_tensor([1, 1]), u, overwrite=False),
        paddle.scatter(x, paddle.to_tensor([1, 1]), u, overwrite=True),
        paddle.scatter(x, paddle.to_tensor([[1], [0]]), u),
        paddle.scatter(x, paddle.to_tensor(1), u[0]),
        paddle.scatter_nd_add(x, paddle.to_tensor([[0, 1], [0, 1]]), paddle.to_tensor([5.0, 6.0])),
        paddle.scatter_nd_add(x, paddle.to_tensor([[1], [2]]), u),
        paddle.scatter_nd(paddle.to_tensor([[1], [1]]), paddle.to_tensor([5.0, 6.0]), [3]),
        paddle.index_add(x, paddle.to_tensor([0, 0]), 1, paddle.ones([3, 2])),
        paddle.index_add(x, paddle.to_tensor([2]), 0, paddle.ones([1, 4]), alpha=2),
        paddle.index_fill(x, paddle.to_tensor([0, 2]), 1, -1.0),
        paddle.index_put(
            x, (paddle.to_tensor([0, 2]), paddle.to_tensor([1, 3])), paddle.to_tensor(9.0)
        ),
        paddle.index_put(
            x,
            (paddle.to_tensor([0, 0]), paddle.to_tensor([1, 1])),
            paddle.to_tensor([1.0, 2.0]),
            accumulate=True,
        ),
        paddle.index_put(x, (paddle.to_tensor([True, False, True]),), paddle.to_tensor(9.0)),
        expect_error(lambda: paddle.scatter(x, paddle.to_tensor([1, 0]), u.astype("float64"))),
    ]


def case_scatter_inplace():
    x = paddle.zeros([3, 2])
    x.scatter_(paddle.to_tensor([1]), paddle.ones([1, 2]))
    y = paddle.zeros([2, 3])
    y.index_add_(paddle.to_tensor([0]), 1, paddle.ones([2, 1]))
    z = paddle.zeros([2, 2])
    z.index_put_((paddle.to_tensor([1]), paddle.to_tensor([0])), paddle.to_tensor(4.0))
    return [x, y, z]


def case_scatter_grad():
    idx = paddle.to_tensor([2, 0])
    return [
        backprop(lambda x, u: paddle.scatter(x, idx, u), randn(3, 2), randn(2, 2, seed=1)),
        backprop(
            lambda x, u: paddle.scatter(x, idx, u, overwrite=False),
            randn(3, 2),
            randn(2, 2, seed=1),
        ),
        backprop(
            lambda x, u: paddle.scatter_nd_add(x, paddle.to_tensor([[1], [1]]), u),
            randn(3, 2),
            randn(2, 2, seed=1),
        ),
        backprop(
            lambda x, v: paddle.index_add(x, idx, 0, v, alpha=3), randn(3, 2), randn(2, 2, seed=1)
        ),
    ]


def case_put_along_axis():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    col = paddle.to_tensor([[0], [0], [0]])
    row = paddle.to_tensor([[0, 0]])
    return [
        paddle.put_along_axis(x, paddle.to_tensor([[0, 1, 2, 0]]), 9.0, 0),
        paddle.put_along_axis(x, col, paddle.to_tensor([[1.0], [2.0], [3.0]]), 1, "add"),
        paddle.put_along_axis(x, row, 2.0, 1, "mul"),
        paddle.put_along_axis(x, row, 2.0, 1, "multiply", include_self=False),
        paddle.put_along_axis(x, row, 2.0, 1, "mean"),
        paddle.put_along_axis(x, row, 2.0, 1, "mean", include_self=False),
        paddle.put_along_axis(x, row, 100.0, 1, "amin"),
        paddle.put_along_axis(x, row, 100.0, 1, "amax"),
        paddle.put_along_axis(x, row, -5.0, 1, "amax", include_self=False),
        paddle.put_along_axis(x, row, 1.0, 1, "add", include_self=False),
        paddle.put_along_axis(
            x, paddle.to_tensor([[0, 1]]), paddle.to_tensor([[7.0, 8.0]]), 1, broadcast=False
        ),
        expect_error(lambda: paddle.put_along_axis(x, row, 1.0, 1, "foo")),
    ]


def case_put_along_axis_grad():
    idx = paddle.to_tensor([[0, 2], [1, 0]])
    return [
        backprop(
            lambda x, v: paddle.put_along_axis(x, idx, v, 1), randn(2, 3), randn(2, 2, seed=1)
        ),
        backprop(
            lambda x, v: paddle.put_along_axis(x, idx, v, 1, "add"),
            randn(2, 3),
            randn(2, 2, seed=1),
        ),
    ]


def case_where():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    c = paddle.to_tensor([[True, False, True, False]])
    i64 = paddle.arange(4)
    return [
        paddle.where(c, x, paddle.zeros([3, 4])),
        paddle.where(c, x, 0.0),
        paddle.where(c, 1.0, 0.0),
        paddle.where(c, 1, 0),
        paddle.where(c, i64, 2),
        paddle.where(c, x, paddle.zeros([1], dtype="float64")),
        paddle.where(c, x.astype("float16"), 2.5),
        paddle.where(c, True, False),
        paddle.where(x > 5),
        paddle.where(paddle.to_tensor(True), 1.0, 2.0),
        paddle.where(paddle.zeros([0], dtype="bool"), paddle.zeros([0]), 1.0),
        c.where(x, -1.0),
    ]


def case_where_errors():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    c = paddle.to_tensor([[True, False, True, False]])
    i32 = x.astype("int32")
    return [
        expect_error(lambda: paddle.where(c, i32, 2.5)),
        expect_error(lambda: paddle.where(c, i32, 2)),
        expect_error(lambda: paddle.where(c, i32, x.astype("int64"))),
        expect_error(lambda: paddle.where(c, x, x.astype("int64"))),
        expect_error(lambda: paddle.where(c, 1, 2.5)),
        expect_error(lambda: paddle.where(c.astype("float32"), x, 0.0)),
        expect_error(lambda: paddle.where(c, x)),
        expect_error(lambda: paddle.where(c, x, x[:2])),
    ]


def case_where_grad_and_inplace():
    c = paddle.to_tensor([True, False, True])
    g = backprop(lambda x, y: paddle.where(c, x * 2, y), randn(3), randn(3, seed=1))
    a = paddle.to_tensor([1.0, 2.0, 3.0])
    r = paddle.where_(c, a, paddle.zeros([3]))
    return [g, a, r]


def case_masked_fill_scatter():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    c = paddle.to_tensor([[True, False, True, False]])
    y = paddle.zeros([2, 2])
    y.masked_fill_(paddle.to_tensor([[True, False], [False, True]]), 7.0)
    return [
        paddle.masked_fill(x, c, 3.0),
        paddle.masked_fill(x, c, paddle.to_tensor(3.0)),
        paddle.masked_fill(x.astype("int64"), c, 3.5),
        paddle.masked_fill(x[:1], paddle.ones([3, 4], dtype="bool"), -1.0),
        paddle.masked_scatter(x, c, paddle.arange(20, dtype="float32")),
        y,
        backprop(lambda a, v: paddle.masked_fill(a, c, v), randn(3, 4), np.float32(2.0)),
    ]


def case_repeat_interleave():
    x = paddle.arange(6, dtype="float32").reshape([2, 3])
    return [
        paddle.repeat_interleave(x, 2),
        paddle.repeat_interleave(x, 2, axis=0),
        paddle.repeat_interleave(x, paddle.to_tensor([1, 0, 2]), axis=1),
        expect_error(lambda: paddle.repeat_interleave(x, paddle.to_tensor([3]), axis=0)),
        expect_error(lambda: paddle.repeat_interleave(x, paddle.to_tensor(2), axis=0)),
        paddle.repeat_interleave(x, 2, axis=-1),
        x.repeat_interleave(1),
        expect_error(lambda: paddle.repeat_interleave(x, [1, 0, 2], axis=1)),
        expect_error(lambda: paddle.repeat_interleave(x, paddle.to_tensor([1, 2]), axis=1)),
        backprop(
            lambda a: paddle.repeat_interleave(a, paddle.to_tensor([2, 1]), axis=0), randn(2, 3)
        ),
    ]


def case_slice_family():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    return [
        paddle.slice(x, [0, 1], [1, -3], [10, 3]),
        paddle.slice(x, [1], [3], [1]),
        paddle.slice(x, [1], [paddle.to_tensor(1)], [3]),
        paddle.slice(x, [1], paddle.to_tensor([1]), paddle.to_tensor([3])),
        paddle.slice(x, [1], [-100], [100]),
        paddle.strided_slice(x, [0, 1], [0, 3], [3, 0], [2, -1]),
        paddle.strided_slice(x, [1], [-1], [-5], [-2]),
        expect_error(lambda: paddle.strided_slice(x, [1], [0], [4], [0])),
        paddle.crop(x, [2, 2]),
        paddle.crop(x, [2, 2], [1, 1]),
        paddle.crop(x, [-1, 2], [1, 1]),
        paddle.crop(x),
        expect_error(lambda: paddle.crop(x, [3, 3], [1, 1])),
        paddle.narrow(x, 1, 1, 2),
        paddle.narrow(x, -1, -2, 2),
        backprop(lambda a: paddle.strided_slice(a, [1], [3], [0], [-2]), randn(3, 4)),
    ]


def case_scatter_views():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    return [
        paddle.select_scatter(x, paddle.ones([4]), 0, 1),
        paddle.slice_scatter(x, paddle.ones([3, 2]), [1], [0], [4], [2]),
        paddle.diagonal_scatter(x, paddle.ones([3])),
        paddle.diagonal_scatter(x, paddle.ones([2]), 2),
        paddle.diagonal_scatter(x, paddle.ones([2]), -1),
    ]


def case_meshgrid():
    a, b = paddle.arange(3), paddle.arange(2)
    return [
        paddle.meshgrid(a, b),
        paddle.meshgrid([a, b]),
        paddle.meshgrid((a, b, paddle.arange(4))),
        paddle.meshgrid(paddle.to_tensor(3), b),
        paddle.meshgrid(a, b, indexing="xy"),
        expect_error(lambda: paddle.meshgrid(a, paddle.arange(2.0))),
    ]


def case_tensordot():
    x = paddle.arange(12, dtype="float32").reshape([3, 4])
    y = _t(4, 3, 2)
    return [
        paddle.tensordot(x, x, 2),
        paddle.tensordot(x, x.T, 1),
        paddle.tensordot(x, x, [[0], [0]]),
        paddle.tensordot(x, x, [[0, 1]]),
        paddle.tensordot(x, x, [0, 1]),
        paddle.tensordot(x, y, [[1, 0], [0, 1]]),
        paddle.tensordot(x, y, [[1], [0]]),
        paddle.tensordot(x.astype("int64"), x.astype("int64"), 0),
        expect_error(lambda: paddle.tensordot(x, x.astype("float64"), 2)),
        backprop(lambda a, b: paddle.tensordot(a, b, [[1], [0]]), randn(3, 4), randn(4, 2, seed=1)),
    ]


def case_misc():
    x = paddle.arange(6, dtype="float32")
    return [
        paddle.numel(paddle.zeros([2, 3])),
        paddle.numel(paddle.to_tensor(1.0)),
        x.unfold(0, 2, 2),
        paddle.unfold(x, 0, 3, 1),
        paddle.atleast_1d(paddle.to_tensor(1.0)),
        paddle.atleast_2d(paddle.to_tensor(1.0), paddle.ones([2])),
        paddle.atleast_3d(x),
        paddle.shard_index(paddle.to_tensor([[1], [5], [9]]), 10, 2, 0),
        paddle.shard_index(paddle.to_tensor([[1], [5], [9]]), 10, 2, 1, ignore_value=-2),
    ]
