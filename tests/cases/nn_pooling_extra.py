"""paddle.nn.functional.fractional_max_pool2d/3d and nn.FractionalMaxPool2D/3D (issue 10):
values, masks and gradients for given ``random_u`` (regions by Paddle's kernel formula), empty
regions, the seeded draw of ``random_u=None``, errors and the layers' repr."""

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F
from _nn_util import T
from _nn_util import register as _reg
from _util import expect_error, normalize, randn

import paddle


def _register(table, prefix="", grad=True):
    _reg(table, globals(), prefix, grad)


X2 = randn(2, 3, 11, 9, seed=1)
X3 = randn(1, 2, 7, 6, 9, seed=2)
TIES = np.array([[[[1, 3, 3, 2, 2, 0, 5, 5], [5, 1, 5, 0, 4, 4, 1, 1]]]], "float32")


def _f2(*a, **kw):
    return lambda x: F.fractional_max_pool2d(x, *a, **kw)


def _f3(*a, **kw):
    return lambda x: F.fractional_max_pool3d(x, *a, **kw)


_register(
    {
        "fmp2d": (_f2(4, random_u=0.3), X2),
        "fmp2d_rect_u09": (_f2([5, 3], random_u=0.9), X2),
        "fmp2d_u_small": (_f2([7, 6], random_u=0.01), X2),
        "fmp2d_kernel": (_f2(4, kernel_size=3, random_u=0.5), X2),
        "fmp2d_kernel_rect": (_f2([3, 5], kernel_size=[4, 2], random_u=0.77), X2),
        "fmp2d_none_keeps": (_f2([None, 4], random_u=0.4), X2),
        "fmp2d_same_size": (_f2([11, 9], random_u=0.6), X2),
        "fmp2d_out1": (_f2(1, random_u=0.2), X2),
        "fmp2d_kernel_out1": (_f2([1, 2], kernel_size=2, random_u=0.2), X2),
        "fmp2d_ties": (_f2([1, 4], kernel_size=[1, 3], random_u=0.4), TIES),
        "fmp2d_float64": (_f2([4, 3], random_u=0.55), X2.astype("float64")),
        "fmp3d": (_f3(3, random_u=0.3), X3),
        "fmp3d_rect": (_f3([4, 2, 5], random_u=0.85), X3),
        "fmp3d_kernel": (_f3([3, 3, 4], kernel_size=[2, 3, 2], random_u=0.45), X3),
    },
    "",
)

_register(
    {
        "fmp2d_mask": (_f2([5, 4], random_u=0.35, return_mask=True), X2),
        "fmp2d_kernel_mask": (_f2(3, kernel_size=2, random_u=0.65, return_mask=True), X2),
        "fmp2d_ties_mask": (_f2([2, 3], random_u=0.5, return_mask=True), TIES),
        "fmp3d_mask": (_f3([3, 4, 5], random_u=0.15, return_mask=True), X3),
        # output one larger than the input: some regions are empty (-FLT_MAX, mask -1)
        "fmp2d_empty_regions": (_f2([12, 10], random_u=0.5, return_mask=True), X2),
    },
    "",
    grad=False,
)


def case_fmp_layers():
    x2, x3 = T(X2), T(X3)
    l2 = nn.FractionalMaxPool2D([3, 4], kernel_size=2, random_u=0.3, return_mask=True)
    l3 = nn.FractionalMaxPool3D(2, random_u=0.7)
    return {
        "repr": [repr(l2), repr(l3), repr(nn.FractionalMaxPool2D(3))],
        "out2": normalize(list(l2(x2))),
        "out3": normalize(l3(x3)),
    }


def case_fmp_seeded_draw():
    """random_u=None draws u from the global CPU generator: paddle.seed fixes it, and the
    draw advances the stream that paddle.rand reads."""
    x = T(X2)
    paddle.seed(11)
    masks = [F.fractional_max_pool2d(x, [4, 5], return_mask=True)[1] for _ in range(3)]
    layer = nn.FractionalMaxPool3D([3, 2, 4], return_mask=True)
    m3 = layer(T(X3))[1]
    return {
        "masks": normalize(masks),
        "mask3d": normalize(m3),
        "after": normalize(paddle.rand([3])),
    }


def case_fmp_errors():
    x2, x3 = T(X2), T(X3)
    return [
        expect_error(lambda: F.fractional_max_pool2d(x2, 3, random_u=0.0)),
        expect_error(lambda: F.fractional_max_pool2d(x2, 3, random_u=1.0)),
        expect_error(lambda: F.fractional_max_pool2d(x2, 3, random_u=-0.5)),
        expect_error(lambda: F.fractional_max_pool2d(x3, 3, random_u=0.5)),
        expect_error(lambda: F.fractional_max_pool3d(x2, 3, random_u=0.5)),
        expect_error(lambda: F.fractional_max_pool2d(x2, [13, 3], random_u=0.5)),
        expect_error(lambda: F.fractional_max_pool2d(x2, [3, 4], kernel_size=7, random_u=0.5)),
        expect_error(lambda: F.fractional_max_pool2d(x2, [3, 4, 5], random_u=0.5)),
        expect_error(lambda: F.fractional_max_pool2d(x2, [3], random_u=0.5)),
        expect_error(lambda: F.fractional_max_pool2d(x2, 3, kernel_size=[1, 2, 3], random_u=0.5)),
        expect_error(lambda: F.fractional_max_pool2d(x2.astype("int32"), 3, random_u=0.5)),
        expect_error(lambda: F.fractional_max_pool3d(x3, [2, 2], random_u=0.5)),
        expect_error(lambda: F.fractional_max_pool3d(x3, 2, kernel_size=[2, 2], random_u=0.5)),
    ]
