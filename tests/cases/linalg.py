"""Linear algebra: norms, distances, products, decompositions, solvers, their gradients and
errors."""

import numpy as np
from _util import backprop, expect_error, randn

import paddle

L = paddle.linalg
INF = float("inf")
A3 = np.arange(-4, 20, dtype="float32").reshape(2, 3, 4) / 3
SPD = np.array([[4.0, 2.0, 0.5], [2.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype="float32")
M32 = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype="float32")
TOLERANCE = {
    "case_decompositions": (1e-4, 1e-5),
    "case_householder_lowrank": (1e-4, 1e-5),
    "case_decomposition_grads": (1e-4, 1e-4),
    "case_solvers": (1e-4, 1e-5),
    "case_norm_matrix": (1e-5, 1e-5),
}


def _t(a, grad=False):
    a = np.asarray(a)
    a = a.astype("float32") if a.dtype == np.float64 else a
    return paddle.to_tensor(a, stop_gradient=not grad)


def case_norm_vector():
    x, m, v = _t(A3), _t(A3[0]), _t(A3[0, 0])
    out = []
    for p in [None, "fro", 2, 1, INF, -INF, 0, 3, -1, 0.5]:
        out += [paddle.norm(v, p=p), paddle.norm(m, p=p), paddle.norm(x, p=p)]
    return out + [
        paddle.norm(_t(3.0)),
        paddle.norm(_t(-3.0), p=1),
        paddle.norm(paddle.zeros([0, 3])),
        paddle.norm(_t(np.array([1.0, 2.0]))),
        x.norm(p=2, axis=1),
        paddle.norm(x, p="fro", axis=1),
        paddle.norm(x, p=INF, axis=-1, keepdim=True),
        paddle.norm(x, p=0, axis=2),
        paddle.norm(x, axis=1),
        paddle.norm(x, p=3, axis=[0, 1, 2]),
        paddle.norm(x, p=2, axis=[1]),
        paddle.norm(x, p=2, dtype="float64"),
        paddle.norm(m, keepdim=True),
    ]


def case_norm_matrix():
    x, m = _t(A3), _t(A3[0])
    return [
        paddle.norm(m, p="nuc"),
        paddle.norm(x, p="fro", axis=[0, 1]),
        paddle.norm(x, p="nuc", axis=[1, 2]),
        paddle.norm(x, p=2, axis=[1, 2]),
        paddle.norm(x, p=1, axis=[1, 2]),
        paddle.norm(x, p=INF, axis=[0, 2]),
        paddle.norm(x, p=-INF, axis=[0, 2]),
        paddle.norm(x, axis=[1, 2]),
        paddle.norm(x, p=2, axis=(1, 2)),
        paddle.norm(x, p="nuc", axis=[1, 2], keepdim=True),
        paddle.norm(x, p="fro", axis=[0, 1], keepdim=True),
    ]


def case_vector_matrix_norm():
    x = _t(A3)
    out = [
        L.vector_norm(x),
        L.vector_norm(x, p=3, axis=[0, 2]),
        L.vector_norm(x, p=2, axis=1, keepdim=True),
        L.vector_norm(x, axis=(0, 1, 2)),
    ]
    out += [L.vector_norm(x, p=p) for p in (1, INF, -INF, 0)]
    out += [
        L.matrix_norm(x),
        L.matrix_norm(x, axis=[0, 2]),
        L.matrix_norm(x, p=1, axis=[-1, -2], keepdim=True),
    ]
    return out + [L.matrix_norm(x, p=p) for p in ("nuc", 1, -1, 2, INF, -INF)]


def case_norm_errors():
    x = _t(A3)
    return [
        expect_error(lambda: paddle.norm(x, p="nuc")),
        expect_error(lambda: paddle.norm(x, p=3, axis=[1, 2])),
        expect_error(lambda: paddle.norm(x, p=2, axis=[1, 1])),
        expect_error(lambda: paddle.norm(x, p=2, axis=3)),
        expect_error(lambda: paddle.norm(x, p="fro", axis=[0, 1, 2])),
        expect_error(lambda: paddle.norm(x, p="nuc", axis=1)),
        expect_error(lambda: paddle.norm(_t(np.array([1, 2])))),
        expect_error(lambda: L.vector_norm(x, p="fro")),
        expect_error(lambda: L.matrix_norm(x, p=3)),
        expect_error(lambda: L.matrix_norm(x, axis=1)),
    ]


def case_norm_grads():
    full = np.array([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.0, 1.5, 4.0]], dtype="float32")
    out = []
    for p in [None, "fro", 1, INF, 3]:
        out += backprop(lambda x, p=p: paddle.norm(x, p=p), A3[0])
    out += backprop(lambda x: paddle.norm(x, p="nuc"), full)
    out += backprop(lambda x: paddle.norm(x, p=2, axis=1), A3[0])
    out += backprop(lambda x: L.matrix_norm(x, p=1), full)
    return out


def case_dist_cdist():
    x = _t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y = _t([[0.0, 1.0, 0.0], [1.0, 0.0, 2.0]])
    a = _t([[0.0, 0.0], [1.0, 1.0], [2.0, 3.0]])
    b = _t([[1.0, 0.0], [3.0, 4.0]])
    out = [paddle.dist(x, y, p=p) for p in (2, 1, 0, INF, -INF)]
    out += [paddle.dist(x, _t([1.0, 1.0, 1.0]), p=3), x.dist(y)]
    out += [paddle.cdist(a, b, p=p) for p in (2.0, 1.0, 0.0, INF, 3.0)]
    out += [paddle.cdist(_t(randn(2, 3, 2)), _t(randn(2, 4, 2, seed=1))), a.cdist(b)]
    out += backprop(paddle.cdist, a.numpy(), b.numpy())
    out += backprop(paddle.dist, x.numpy(), y.numpy())
    return out + [
        expect_error(lambda: paddle.dist(x, _t([1.0, 2.0]))),
        expect_error(lambda: paddle.cdist(a, paddle.ones([2, 3]))),
        expect_error(lambda: paddle.cdist(paddle.ones([2]), paddle.ones([2]))),
    ]


def case_cross_t_trace():
    x3 = _t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y3 = _t([[0.0, 1.0, 0.0], [1.0, 0.0, 2.0]])
    xc = _t([[1.0, 2.0, 4.0], [3.0, 1.0, 0.0]])
    return [
        paddle.cross(x3, y3),
        L.cross(x3, y3, axis=1),
        x3.cross(y3),
        paddle.cross(_t([1, 2, 3]), _t([3, 2, 1])),
        paddle.t(x3),
        paddle.t(paddle.ones([3])),
        paddle.t(_t(1.0)),
        x3.t(),
        paddle.trace(xc),
        paddle.trace(xc, offset=1),
        paddle.trace(xc, offset=-1),
        paddle.trace(paddle.ones([2, 3, 4]), axis1=1, axis2=2),
        paddle.trace(_t([[1, 2], [3, 4]])),
        paddle.trace(xc, offset=5),
        xc.trace(),
        backprop(paddle.cross, x3.numpy(), y3.numpy()),
        backprop(lambda t: paddle.trace(t, offset=1), [[1.0, 2.0, 4.0], [3.0, 1.0, 0.0]]),
        expect_error(lambda: paddle.cross(x3, y3, axis=0)),
        expect_error(lambda: paddle.cross(paddle.ones([3]), paddle.ones([2, 3]))),
        expect_error(lambda: paddle.t(paddle.ones([2, 2, 2]))),
        expect_error(lambda: paddle.trace(paddle.ones([3]))),
        expect_error(lambda: paddle.trace(xc, axis1=0, axis2=0)),
    ]


def case_t_inplace():
    x = _t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y = x.t_()
    return [x, y.shape, paddle.t_(x)]


def case_products():
    a = _t([[2.0, 1.0], [1.0, 3.0]])
    xc = _t([[1.0, 2.0, 4.0], [3.0, 1.0, 0.0]])
    return [
        L.multi_dot([paddle.ones([2, 3]), _t(randn(3, 4)), _t(randn(4, seed=1))]),
        L.multi_dot([_t(randn(3)), _t(randn(3, 4, seed=2))]),
        L.multi_dot([_t(randn(2, 3)), _t(randn(3, 3, seed=1)), _t(randn(3, 2, seed=2))]),
        L.matrix_power(a, 3),
        L.matrix_power(a, 0),
        L.matrix_power(a, -2),
        a.matrix_power(1),
        L.vecdot(xc, xc),
        paddle.vecdot(xc, xc, axis=0),
        L.cov(xc),
        L.cov(xc, rowvar=False),
        L.cov(xc, ddof=False),
        L.cov(xc[0]),
        L.cov(xc, fweights=_t([1, 2, 1])),
        L.cov(xc, aweights=_t([0.5, 1.0, 2.0])),
        xc.cov(),
        L.corrcoef(xc),
        xc.corrcoef(rowvar=False),
        backprop(lambda s, t: L.multi_dot([s, t]), randn(2, 3), randn(3, 2)),
        backprop(lambda t: L.matrix_power(t, 3), [[2.0, 1.0], [1.0, 3.0]]),
        backprop(lambda t: L.cov(t), [[1.0, 2.0, 4.0], [3.0, 1.0, 0.0]]),
        expect_error(lambda: L.multi_dot([paddle.ones([2, 3])])),
        expect_error(lambda: L.multi_dot([paddle.ones([2, 3]), paddle.ones([4, 4])])),
        expect_error(lambda: L.matrix_power(_t([[1, 2], [3, 4]]), 2)),
        expect_error(lambda: L.matrix_power(paddle.ones([2, 3]), 2)),
        expect_error(lambda: L.cov(_t([[1, 2, 4], [3, 1, 0]]))),
    ]


def case_det_inv():
    a = _t([[2.0, 1.0], [1.0, 3.0]])
    s = _t([[1.0, 2.0], [2.0, 4.0]])
    b3 = _t(randn(2, 3, 3))
    return [
        L.det(a),
        L.det(b3),
        L.det(paddle.ones([0, 0])),
        L.det(paddle.ones([2, 0, 0])),
        L.slogdet(a),
        L.slogdet(b3),
        L.slogdet(s),
        L.slogdet(-a),
        a.slogdet(),
        L.inv(a),
        paddle.inverse(b3),
        a.inverse(),
        L.pinv(_t(M32)),
        L.pinv(a, hermitian=True),
        _t(M32).pinv(rcond=1e-3),
        L.matrix_rank(a),
        L.matrix_rank(s),
        L.matrix_rank(paddle.ones([2, 3, 3])),
        L.matrix_rank(a, tol=2.0),
        L.matrix_rank(a, hermitian=True),
        L.matrix_rank(a, atol=1.5),
        L.matrix_rank(a, rtol=0.5),
        L.matrix_exp(_t([[0.0, 1.0], [-1.0, 0.0]])),
        L.cond(_t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])),
    ] + [
        L.cond(_t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]), p=p)
        for p in ("fro", 1, -2, INF, "nuc")
    ]


def case_det_inv_grads():
    a = randn(3, 3) + 2 * np.eye(3, dtype="float32")
    return (
        backprop(L.det, a)
        + backprop(L.inv, a)
        + backprop(lambda t: L.slogdet(t), a)
        + backprop(L.pinv, M32)
        + backprop(L.matrix_exp, a * 0.3)
    )


def case_det_inv_errors():
    s = _t([[1.0, 2.0], [2.0, 4.0]])
    i = _t([[1, 2], [3, 4]])
    return [
        expect_error(lambda: L.det(i)),
        expect_error(lambda: L.det(paddle.ones([2, 3]))),
        expect_error(lambda: L.inv(s)),
        expect_error(lambda: L.inv(i)),
        expect_error(lambda: L.inv(paddle.ones([2, 3]))),
        expect_error(lambda: L.matrix_rank(i)),
    ]


def case_solvers():
    a = _t([[2.0, 1.0], [1.0, 3.0]])
    u = _t([[2.0, 1.0], [0.0, 3.0]])
    b = _t([[1.0], [3.0]])
    x = _t([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
    y = _t([[1.0], [2.0], [2.0]])
    lc = L.cholesky(_t(SPD))
    p = _t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
    lu, piv = L.lu(p)
    return [
        L.solve(a, b),
        L.solve(a, _t([1.0, 2.0])),
        L.solve(a, _t([[1.0, 2.0]]), left=False),
        L.solve(_t(randn(2, 3, 3)), paddle.ones([3, 2])),
        L.triangular_solve(u, b),
        L.triangular_solve(u, b, upper=False),
        L.triangular_solve(u, b, transpose=True),
        L.triangular_solve(u, b, unitriangular=True),
        L.triangular_solve(_t(np.stack([u.numpy(), u.numpy() * 2])), b),
        list(L.lstsq(x, y)),
        list(L.lstsq(x, y, driver="gelsd")),
        list(L.lstsq(x, y, driver="gelss")),
        list(L.lstsq(x, y, driver="gels")),
        list(L.lstsq(x.T, _t([[1.0], [2.0]]), driver="gelsd")),
        list(L.lstsq(_t(np.stack([x.numpy()] * 2)), _t(np.stack([y.numpy()] * 2)), driver="gelss")),
        list(L.lstsq(x, y, rcond=0.5, driver="gelsd")),
        L.cholesky_solve(_t([[1.0], [2.0], [3.0]]), lc),
        L.cholesky_solve(_t([[1.0], [2.0], [3.0]]), lc.T, upper=True),
        L.cholesky_inverse(lc),
        L.cholesky_inverse(lc.T, upper=True),
        list(L.lu(p)),
        list(L.lu(p, get_infos=True)),
        list(L.lu_unpack(lu, piv)),
        L.lu_solve(_t([[1.0], [2.0], [3.0]]), lu, piv),
        L.lu_solve(_t([[1.0], [2.0], [3.0]]), lu, piv, trans="T"),
        backprop(L.solve, [[2.0, 1.0], [1.0, 3.0]], [[1.0], [3.0]]),
        backprop(L.triangular_solve, [[2.0, 1.0], [0.0, 3.0]], [[1.0], [3.0]]),
        backprop(lambda s, t: L.lstsq(s, t)[0], x.numpy(), y.numpy()),
    ]


def case_solver_errors():
    a = _t([[2.0, 1.0], [1.0, 3.0]])
    return [
        expect_error(lambda: L.solve(_t([[1.0, 2.0], [2.0, 4.0]]), _t([1.0, 2.0]))),
        expect_error(lambda: L.triangular_solve(a, _t([1.0, 3.0]))),
        expect_error(lambda: L.lstsq(a, _t([1.0, 2.0]))),
        expect_error(lambda: L.cholesky(_t([[1.0, 2.0], [2.0, 4.0]]))),
        expect_error(lambda: paddle.cholesky(-a)),
        expect_error(lambda: L.cholesky(paddle.ones([2, 3]))),
        expect_error(lambda: L.eigh(paddle.ones([2, 3]))),
        expect_error(lambda: L.eigh(paddle.ones([2, 2], "int64"))),
    ]


def _abs(ts):
    return [paddle.abs(t) for t in ts]


def case_decompositions():
    m = _t(M32)
    sym = _t([[2.0, 100.0], [1.0, 3.0]])
    q, r = L.qr(m)
    u, s, vh = L.svd(m)
    return [
        L.cholesky(_t(SPD)),
        L.cholesky(_t(SPD), upper=True),
        paddle.cholesky(_t(SPD)),
        _abs(L.qr(m)),
        _abs(L.qr(m, mode="complete")),
        paddle.abs(L.qr(m, mode="r")),
        paddle.matmul(q, r),
        _abs(L.svd(m)),
        _abs(L.svd(m, full_matrices=True)),
        paddle.matmul(u * s, vh),
        L.svdvals(m),
        L.svdvals(_t(randn(2, 3, 4))),
        L.eigh(_t(SPD))[0],
        paddle.abs(L.eigh(_t(SPD))[1]),
        L.eigh(sym, UPLO="U")[0],
        L.eigvalsh(sym),
        paddle.eigvalsh(sym, UPLO="U"),
        L.eigvalsh(_t(randn(2, 3, 3))),
        list(L.eig(_t([[2.0, 1.0], [0.0, 3.0]]))),
        np.sort(L.eigvals(_t([[2.0, 1.0], [0.0, 3.0]])).numpy().real),
    ]


def case_decomposition_grads():
    sym_nonsym = [[4.0, 2.0], [1.0, 3.0]]
    out = backprop(L.cholesky, sym_nonsym) + backprop(L.cholesky, SPD)
    out += backprop(lambda t: L.eigvalsh(t), sym_nonsym) + backprop(lambda t: L.eigh(t)[0], SPD)
    out += backprop(lambda t: L.eigvalsh(t, UPLO="U"), sym_nonsym)
    out += backprop(L.svdvals, M32)
    x = _t(M32, grad=True)
    q, r = L.qr(x)  # sign-invariant loss; both outputs used (Paddle crashes otherwise)
    ((r.abs() * _t([[1.0, 2.0], [3.0, 4.0]])).sum() + (q * q * _t(M32)).sum()).backward()
    return out + [x.grad]


def case_householder_lowrank():
    x = _t(randn(4, 4))
    tau = _t([1.2, 0.5, 0.3, 0.1])
    y = _t(randn(4, 2, seed=1))
    x5 = _t(randn(5, 4))
    u, s, v = L.svd_lowrank(x5)
    u2, s2, v2 = L.svd_lowrank(x5, q=2)
    return [
        L.householder_product(x, tau),
        L.householder_product(_t(randn(4, 3)), tau[:3]),
        L.ormqr(x, tau, y),
        L.ormqr(x, tau, y, transpose=True),
        L.ormqr(x, tau, _t(randn(2, 4, seed=1)), left=False),
        s,
        paddle.matmul(u * s, v.T),
        [u2.shape, s2.shape, v2.shape],
        L.pca_lowrank(x5)[1],
        L.pca_lowrank(x5, q=2, center=False)[0].shape,
        expect_error(lambda: L.ormqr(_t(randn(4, 3)), tau[:3], y)),
    ]
