"""paddle.sparse.nn conv/pool beyond the goldens: sparse conv against the dense conv of the
densified input over a table of geometries, the per-offset (scan) kernel against the single
GEMM, rulebook reuse, the igemm aliases, and the errors raised where Paddle crashes or
returns garbage."""

from __future__ import annotations

import numpy as np
import pytest

import paddle
import paddle_compat.sparse._conv as sparse_conv_impl

S = paddle.sparse
F = paddle.sparse.nn.functional


def _coo(shape, nnz, seed=0):
    r = np.random.default_rng(seed)
    lin = r.choice(int(np.prod(shape[:-1])), nnz, replace=False)
    idx = np.stack(np.unravel_index(lin, shape[:-1]))
    vals = r.standard_normal((nnz, shape[-1])).astype("float32")
    return S.sparse_coo_tensor(idx, vals, shape)


def _weight(shape, seed=1):
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype("float32"))


def _dense_conv(x, w, nsp, **kw):
    perm = [nsp + 1, nsp, *range(nsp)]  # [*k, C_in, C_out] -> [C_out, C_in, *k]
    conv = paddle.nn.functional.conv2d if nsp == 2 else paddle.nn.functional.conv3d
    fmt = "NHWC" if nsp == 2 else "NDHWC"
    return conv(x.to_dense(), w.transpose(perm), data_format=fmt, **kw).numpy()


GEOMETRIES = [
    (2, [2, 5, 6, 3], (3, 3), {}),
    (2, [1, 7, 5, 2], (3, 2), {"stride": 2, "padding": 1}),
    (2, [2, 6, 6, 2], (3, 3), {"dilation": 2, "padding": [2, 1]}),
    (2, [1, 5, 5, 1], (5, 5), {}),  # one output site
    (3, [2, 4, 5, 3, 2], (3, 3, 3), {"padding": 1}),
    (3, [1, 6, 4, 5, 3], (2, 3, 1), {"stride": [2, 1, 2], "padding": [0, 1, 0]}),
]


@pytest.mark.parametrize("nsp,shape,kernel,kw", GEOMETRIES)
def test_conv_equals_dense_conv(nsp, shape, kernel, kw):
    x = _coo(shape, 9)
    w = _weight((*kernel, shape[-1], 3))
    op = F.conv2d if nsp == 2 else F.conv3d
    y = op(x, w, **kw)
    np.testing.assert_allclose(y.to_dense().numpy(), _dense_conv(x, w, nsp, **kw), atol=1e-5)
    idx = y.indices().numpy()
    assert (np.lexsort(idx[::-1]) == np.arange(idx.shape[1])).all()  # sorted output sites


@pytest.mark.parametrize("nsp,shape", [(2, [2, 5, 6, 3]), (3, [1, 4, 5, 3, 2])])
def test_subm_conv_keeps_sites(nsp, shape):
    x = _coo(shape, 10)
    w = _weight((3,) * nsp + (shape[-1], 4))
    op = F.subm_conv2d if nsp == 2 else F.subm_conv3d
    y = op(x, w)
    idx = x.indices().numpy()
    order = np.lexsort(idx[::-1])
    np.testing.assert_array_equal(y.indices().numpy(), idx[:, order])
    ref = _dense_conv(x, w, nsp, padding=1)[tuple(idx[:, order])]
    np.testing.assert_allclose(y.values().numpy(), ref, atol=1e-5)
    igemm = F.subm_conv2d_igemm if nsp == 2 else F.subm_conv3d_igemm
    np.testing.assert_array_equal(igemm(x, w).values().numpy(), y.values().numpy())


def test_scan_kernel_matches_gemm(monkeypatch):
    v = np.random.default_rng(3).standard_normal((12, 2)).astype("float32")
    idx = _coo([2, 4, 5, 3, 2], 12).indices()
    w0 = np.random.default_rng(4).standard_normal((3, 3, 3, 2, 3)).astype("float32")

    def run():
        vals = paddle.to_tensor(v, stop_gradient=False)
        w = paddle.to_tensor(w0, stop_gradient=False)
        x = S.sparse_coo_tensor(idx, vals, [2, 4, 5, 3, 2], stop_gradient=False)
        y = F.conv3d(x, w, padding=1)
        (y.values() ** 2).sum().backward()
        return y.values().numpy(), vals.grad.numpy(), w.grad.numpy()

    gemm = run()
    monkeypatch.setattr(sparse_conv_impl, "_GATHER_LIMIT", 0)
    for a, b in zip(run(), gemm):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_rulebook_reused():
    x = _coo([1, 5, 5, 5, 2], 8)
    w = _weight((3, 3, 3, 2, 2))
    a = F.subm_conv3d(x, w)
    b = F.subm_conv3d(x, w, key="k")
    F.conv3d(x, w)
    assert len(x.__dict__["_sp_rulebooks"]) == 2
    np.testing.assert_array_equal(a.values().numpy(), b.values().numpy())


ERRORS = [
    # Paddle reads past the weight (garbage) when its C_in differs from the input's channels
    ("channels", lambda x, w: F.conv3d(x, _weight((3, 3, 3, 4, 2)))),
    # Paddle crashes (SIGFPE) on a zero stride
    ("stride0", lambda x, w: F.conv3d(x, w, stride=0)),
    # Paddle returns a negative output shape
    ("negative_out", lambda x, w: F.conv3d(x, _weight((6, 3, 3, 2, 2)))),
    # channels in the indices (sparse_dim 5): Paddle reads garbage
    ("sparse_channels", lambda x, w: F.conv3d(x.to_dense().to_sparse_coo(5), w)),
    ("pool_negative_pad", lambda x, w: F.max_pool3d(x, 2, padding=-1)),
]


@pytest.mark.parametrize("name,fn", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_where_paddle_crashes(name, fn):
    x = _coo([1, 4, 5, 3, 2], 6)
    with pytest.raises(ValueError):
        fn(x, _weight((3, 3, 3, 2, 2)))
