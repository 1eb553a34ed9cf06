"""Randomized low-rank SVD/PCA after ``paddle.seed``: Paddle draws the Gaussian sketch from its
global generator, so the values (singular-vector signs included) and the generator's state
afterwards are Paddle's; plus their argument errors."""

from _util import expect_error

import paddle

L = paddle.linalg
TOLERANCE = {"case_svd_lowrank": (1e-4, 1e-5), "case_pca_lowrank": (1e-4, 1e-5)}


def case_svd_lowrank():
    paddle.seed(2024)
    x = paddle.randn((5, 5), dtype="float64")
    y = paddle.randn((4, 6), dtype="float32")
    z = paddle.randn((2, 6, 4), dtype="float64")
    mean = paddle.randn((1, 4), dtype="float64")
    return [
        L.svd_lowrank(x),
        x.svd_lowrank(q=3, niter=0),
        L.svd_lowrank(y, q=3, niter=1),  # m < n: the basis of x^T's range
        L.svd_lowrank(z, q=2, M=mean),  # batched, with a mean
        L.svd_lowrank(z[0], q=4),
        paddle.randn([3]),  # the generator advanced as in Paddle
    ]


def case_pca_lowrank():
    paddle.seed(7)
    x = paddle.randn((5, 4), dtype="float64")
    return [L.pca_lowrank(x), L.pca_lowrank(x, q=2, center=False), paddle.rand([2])]


def case_lowrank_errors():
    x = paddle.randn((5, 5), dtype="float64")
    return [
        expect_error(lambda: L.svd_lowrank(x, q=7)),
        expect_error(lambda: L.svd_lowrank(x, niter=-1)),
        expect_error(lambda: L.svd_lowrank(x.numpy())),
        expect_error(lambda: L.pca_lowrank(x, q=-1)),
        expect_error(lambda: L.pca_lowrank(x, niter=-2)),
    ]
