"""quantile/nanquantile, nanmedian, bincount, histogram, histogram_bin_edges, histogramdd."""

import numpy as np
from _api_util import t
from _util import backprop, expect_error, randn

import paddle


def _nan2d():
    return paddle.to_tensor(
        [[1.0, np.nan, 3.0, 0.5], [2.0, 5.0, np.nan, np.nan], [np.nan, np.nan, np.nan, np.nan]]
    )


def case_quantile():
    x = t(3, 4)
    return [
        paddle.quantile(x, 0.5),
        paddle.quantile(x, [0.25, 0.75], axis=1),
        paddle.quantile(x, paddle.to_tensor([0.1, 0.9]), axis=0),
        paddle.quantile(x, 0.3, axis=[0, 1], keepdim=True),
        paddle.quantile(x, 0.4, axis=-1, keepdim=True),
        paddle.quantile(x.astype("float64"), 1.0, axis=0),
        x.quantile(0.5, axis=0),
    ]


def case_quantile_interpolation():
    x = t(2, 5)
    return [
        paddle.quantile(x, 0.3, axis=1, interpolation=m)
        for m in ("linear", "lower", "higher", "nearest", "midpoint")
    ]


def case_quantile_errors():
    x = t(2, 3)
    return [
        expect_error(lambda: paddle.quantile(x, 1.5)),
        expect_error(lambda: paddle.quantile(x, [-0.1])),
        expect_error(lambda: paddle.quantile(x, 0.5, interpolation="foo")),
        expect_error(lambda: paddle.quantile(x, 0.5, axis=3)),
    ]


def case_quantile_grads():
    return [
        backprop(lambda a: paddle.quantile(a, [0.3, 0.5], axis=1), randn(2, 5)),
        backprop(lambda a: paddle.quantile(a, 0.5), randn(2, 3)),
    ]


def case_nanquantile():
    x = _nan2d()[:2]
    return [
        paddle.nanquantile(x, 0.5, axis=1),
        paddle.nanquantile(x, [0.2, 0.8], axis=1),
        paddle.nanquantile(x, 0.5),
        paddle.nanquantile(_nan2d(), 0.5, axis=1),
        paddle.nanquantile(x, 0.5, axis=0, keepdim=True, interpolation="lower"),
        x.nanquantile(0.5, axis=1),
    ]


def case_nanmedian():
    x = _nan2d()
    return [
        paddle.nanmedian(x),
        paddle.nanmedian(x, axis=1),
        paddle.nanmedian(x[:2], axis=0),
        paddle.nanmedian(x, axis=1, keepdim=True),
        paddle.nanmedian(x, mode="min"),
        paddle.nanmedian(x, axis=1, mode="min"),
        paddle.nanmedian(x, axis=1, mode="min", keepdim=True),
        paddle.nanmedian(t(2, 3), axis=[0, 1]),
        x.nanmedian(axis=1),
        backprop(
            lambda a: paddle.nanmedian(a, axis=1),
            np.array([[1.0, np.nan, 3.0], [2.0, 5.0, 4.0]], "float32"),
        ),
    ]


def case_nanmedian_int_and_0d():
    """Integer nanmedian keeps the dtype (the middle values' sum halved toward zero, in both
    modes); a 0-D input with keepdim stays 0-D; median's 0-D keepdim too."""
    x = paddle.to_tensor(np.array([[3, -1, 0, 4], [-2, 1, 0, 5]], "int32"))
    z = paddle.to_tensor(2.5)
    return [
        paddle.nanmedian(x),
        paddle.nanmedian(x, axis=1),
        paddle.nanmedian(x.astype("int64"), axis=0, keepdim=True),
        *paddle.nanmedian(x, axis=1, mode="min"),
        paddle.nanmedian(x, axis=[0, 1], mode="min"),
        paddle.nanmedian(z, keepdim=True),
        paddle.median(z, keepdim=True),
        expect_error(lambda: paddle.nanmedian(z, axis=1)),
    ]


def case_integer_and_half_statistics_dtypes():
    """Paddle 3.3.1's dtypes and numbers: nanmean of integers in float32; std of integers is the
    square root of their integer variance (integer mean and quotient, toward zero) in float32;
    median (mode 'avg') of float16/bfloat16 in float32; std of bool has no kernel."""
    i = paddle.to_tensor(np.array([[1, 2, 3], [4, 5, 7]], "int64"))
    h = paddle.to_tensor(np.array([0.5, -1.5, 2.25, 3.0], "float16"))
    return [
        paddle.nanmean(i),
        paddle.nanmean(i, axis=1),
        paddle.nanmean(i.astype("int32")),
        paddle.std(i),
        paddle.std(i, axis=0),
        paddle.std(i, unbiased=False),
        paddle.median(h),
        paddle.median(h.astype("bfloat16").reshape([2, 2]), axis=1, keepdim=True),
        expect_error(lambda: paddle.std(paddle.to_tensor([True, False]))),
    ]


def case_cumulative_ops_on_0d():
    """A 0-D input with axis 0 or -1 keeps a 0-D result (cummax/cummin/cumsum; cumprod takes
    dim 0 only); without an axis the result is flattened to [1]; another axis raises."""
    z = paddle.to_tensor(np.float32(0.5))
    return [
        *paddle.cummax(z, axis=-1),
        *paddle.cummin(z, axis=0),
        *paddle.cummax(z),
        paddle.cumsum(z, axis=0),
        paddle.cumsum(z, axis=-1, dtype="float64"),
        paddle.cumsum(z),
        paddle.cumprod(z, dim=0),
        paddle.cumprod(z),
        expect_error(lambda: paddle.cummax(z, axis=1)),
        expect_error(lambda: paddle.cumsum(z, axis=1)),
        expect_error(lambda: paddle.cumprod(z, dim=-1)),
    ]


def case_bincount():
    x = paddle.to_tensor([1, 2, 5, 2])
    return [
        paddle.bincount(x),
        paddle.bincount(x, minlength=8),
        paddle.bincount(x, weights=paddle.to_tensor([0.5, 1.0, 2.0, 0.25])),
        paddle.bincount(x, weights=paddle.to_tensor([1, 2, 3, 4])),
        paddle.bincount(paddle.to_tensor([0, 3], dtype="int32")),
        paddle.bincount(paddle.to_tensor([], dtype="int64")),
        x.bincount(),
        expect_error(lambda: paddle.bincount(paddle.to_tensor([-1, 2]))),
        expect_error(lambda: paddle.bincount(paddle.to_tensor([1.0, 2.0]))),
    ]


def case_histogram():
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
    i = paddle.to_tensor([1, 2, 5, 2])
    return [
        paddle.histogram(x, bins=4),
        paddle.histogram(x, bins=3, min=-1, max=1),
        paddle.histogram(i, bins=3),
        paddle.histogram(x, bins=4, density=True),
        paddle.histogram(x, bins=2, weight=paddle.ones_like(x) * 2),
        paddle.histogram(paddle.to_tensor([2.0, 2.0, 2.0]), bins=4),
        paddle.histogram(i, bins=2, density=True),
        x.histogram(bins=2),
        expect_error(lambda: paddle.histogram(x, bins=2, min=2, max=1)),
    ]


def case_histogram_bin_edges():
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
    return [
        paddle.histogram_bin_edges(x, bins=4),
        paddle.histogram_bin_edges(x, bins=2, min=-1, max=1),
        paddle.histogram_bin_edges(paddle.to_tensor([1, 5]), bins=4),
        paddle.histogram_bin_edges(paddle.to_tensor([2.0, 2.0]), bins=4),
    ]


def case_histogramdd():
    x = paddle.to_tensor([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [0.5, 1.5]])
    return [
        paddle.histogramdd(x, bins=2),
        paddle.histogramdd(x, bins=[2, 3], ranges=[0.0, 2.0, 0.0, 3.0], density=True),
        paddle.histogramdd(x, bins=2, weights=paddle.to_tensor([1.0, 2.0, 3.0, 4.0])),
        expect_error(
            lambda: paddle.histogramdd(
                x, bins=[paddle.to_tensor([0.0, 1.0, 2.0]), paddle.to_tensor([0.0, 0.5, 2.0])]
            )
        ),
        expect_error(lambda: paddle.histogramdd(x, bins=2, ranges=[0.0, 1.0])),
    ]
