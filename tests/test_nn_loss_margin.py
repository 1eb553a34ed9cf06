"""margin_cross_entropy (Paddle 3.3.1 has a GPU kernel only: checked against its documented
example output and a numpy transcription of the kernel's formulas) and class_center_sample's
random negatives (Paddle draws them from a std::mt19937_64 seeded by std::random_device, so
only their invariants and the engine's stream are checked). Values that Paddle's CPU build
does produce are goldens in tests/cases/nn_loss_margin.py."""

from __future__ import annotations

import numpy as np
import paddle.nn.functional as F
import pytest

import paddle
from paddle_compat._core.mt19937 import MT19937_64
from paddle_compat.nn.functional._loss_margin import _sample


def _t(a, grad=False):
    return paddle.to_tensor(a, stop_gradient=not grad)


# -- margin_cross_entropy ---------------------------------------------------------------------
def test_margin_ce_documented_gpu_example():
    # Paddle's docstring example (float64 on one GPU); its logits are printed to 8 decimals
    logits = np.array(
        [
            [-0.59561850, 0.32797505, 0.80279214, 0.00144975],
            [-0.16265212, 0.84155098, 0.62008629, 0.79126072],
        ]
    )
    loss, sm = F.margin_cross_entropy(
        _t(logits), _t(np.array([1, 0])), return_softmax=True, reduction=None
    )
    assert loss.shape == [2, 1] and loss.dtype == paddle.float64
    np.testing.assert_allclose(loss.numpy(), [[61.94391901], [93.30853839]], rtol=1e-8)
    want = [[0.0, 0.0, 1.0, 0.0], [0.0, 0.96152676, 0.00000067, 0.03847257]]
    np.testing.assert_allclose(sm.numpy(), want, atol=2e-8)


def _reference(x, lab, m1, m2, m3, s):
    """The GPU kernel's forward and its hand-written backward (d loss_i / d x); the margins
    and scale are float attributes (float32)."""
    m1, m2, m3, s = (float(np.float32(v)) for v in (m1, m2, m3, s))
    x = x.astype("float64")
    rows = np.arange(len(lab))
    z = x.copy()
    t = x[rows, lab]
    if abs(m1 - 1) > 1e-8 or abs(m2) > 1e-8:
        t = np.cos(m1 * np.arccos(t) + m2)
    z[rows, lab] = t - m3
    z *= s
    z -= z.max(-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    sm = np.exp(logp)
    grad = sm.copy()
    grad[rows, lab] -= 1
    if abs(m1 - 1) > 1e-8 or abs(m2) > 1e-8:
        xl = x[rows, lab]
        grad[rows, lab] *= m1 * np.sin(m1 * np.arccos(xl) + m2) / np.sqrt(1 - xl * xl)
    return -logp[rows, lab][:, None], sm, grad * s


MARGINS = {
    "arcface": (1.0, 0.5, 0.0, 64.0),
    "cosface": (1.0, 0.0, 0.35, 30.0),
    "sphereface": (1.35, 0.0, 0.0, 16.0),
    "combined": (0.9, 0.3, 0.2, 8.0),
    "plain": (1.0, 0.0, 0.0, 1.0),
}


@pytest.mark.parametrize("name", sorted(MARGINS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_margin_ce_matches_kernel_formulas(name, dtype):
    m1, m2, m3, s = MARGINS[name]
    rs = np.random.RandomState(0)
    x = rs.uniform(-0.95, 0.95, (5, 7)).astype(dtype)
    lab = rs.randint(0, 7, 5)
    ref_loss, ref_sm, ref_grad = _reference(x, lab, m1, m2, m3, s)
    xt = _t(x, grad=True)
    loss, sm = F.margin_cross_entropy(
        xt, _t(lab), m1, m2, m3, s, return_softmax=True, reduction="none"
    )
    tol = dict(rtol=2e-5, atol=1e-5) if dtype == "float32" else dict(rtol=1e-10, atol=1e-12)
    assert loss.dtype == sm.dtype == getattr(paddle, dtype)
    np.testing.assert_allclose(loss.numpy(), ref_loss, **tol)
    np.testing.assert_allclose(sm.numpy(), ref_sm, **tol)
    w = rs.randn(5, 1).astype(dtype)
    (loss * _t(w)).sum().backward()
    np.testing.assert_allclose(xt.grad.numpy(), ref_grad * w, **tol)


@pytest.mark.parametrize("reduction", ["mean", "sum", None, "none"])
def test_margin_ce_reductions_and_label_shapes(reduction):
    rs = np.random.RandomState(1)
    x = rs.uniform(-1, 1, (2, 3, 6)).astype("float32")  # leading dims are samples
    lab = rs.randint(0, 6, (2, 3))
    ref, _, _ = _reference(x.reshape(6, 6), lab.reshape(6), 1.0, 0.5, 0.0, 64.0)
    for label in (lab, lab[..., None]):
        out = F.margin_cross_entropy(_t(x), _t(label), reduction=reduction)
        want = {"mean": ref.mean(), "sum": ref.sum()}.get(reduction, ref.reshape(2, 3, 1))
        np.testing.assert_allclose(out.numpy(), want, rtol=2e-5)


def test_margin_ce_float16_runs_in_float32():
    rs = np.random.RandomState(2)
    x = rs.uniform(-1, 1, (4, 5)).astype("float16")
    lab = np.array([0, 4, 2, 2])
    loss, sm = F.margin_cross_entropy(_t(x), _t(lab), return_softmax=True)
    assert loss.dtype == sm.dtype == paddle.float16
    ref, ref_sm, _ = _reference(x.astype("float32"), lab, 1.0, 0.5, 0.0, 64.0)
    np.testing.assert_allclose(float(loss), ref.mean(), rtol=1e-3)
    np.testing.assert_allclose(sm.numpy().astype("float32"), ref_sm, atol=1e-3)


def test_margin_ce_softmax_output_carries_no_gradient():
    x = _t(np.random.RandomState(3).uniform(-1, 1, (2, 4)).astype("float32"), grad=True)
    _, sm = F.margin_cross_entropy(x, _t(np.array([1, 3])), return_softmax=True)
    (sm * _t(np.arange(8, dtype="float32").reshape(2, 4))).sum().backward()
    assert x.grad is None or not np.asarray(x.grad.numpy()).any()


def test_margin_ce_under_to_static():
    x = np.random.RandomState(4).uniform(-1, 1, (3, 5)).astype("float32")
    lab = np.array([4, 0, 2])
    fn = paddle.jit.to_static(lambda a, b: F.margin_cross_entropy(a, b), full_graph=True)
    eager = F.margin_cross_entropy(_t(x), _t(lab))
    np.testing.assert_allclose(fn(_t(x), _t(lab)).numpy(), eager.numpy(), rtol=1e-6)


class _Group:
    def __init__(self, nranks, member=True):
        self.nranks, self._member = nranks, member

    def is_member(self):
        return self._member


def test_margin_ce_errors_and_groups():
    x, lab = _t(np.zeros((2, 4), "float32")), _t(np.array([1, 0]))
    with pytest.raises(OSError, match="out of bounds"):
        F.margin_cross_entropy(x, _t(np.array([1, 4])))
    with pytest.raises(OSError, match="out of bounds"):
        F.margin_cross_entropy(x, _t(np.array([-1, 0])))
    with pytest.raises(NotImplementedError, match="int32 and int64"):
        F.margin_cross_entropy(x, _t(np.array([1.0, 0.0], "float32")))
    with pytest.raises(ValueError, match="group"):
        F.margin_cross_entropy(x, lab, group="ranks")
    with pytest.raises(NotImplementedError, match="2 ranks"):
        F.margin_cross_entropy(x, lab, group=_Group(2))
    assert F.margin_cross_entropy(x, lab, group=_Group(2, member=False)) is None
    one = F.margin_cross_entropy(x, lab, group=_Group(1))
    np.testing.assert_allclose(one.numpy(), F.margin_cross_entropy(x, lab, group=False).numpy())
    assert paddle.nn.functional.loss.margin_cross_entropy is F.margin_cross_entropy


# -- class_center_sample ----------------------------------------------------------------------
def test_class_center_sample_stream_is_paddles():
    # Paddle's kernel (via _C_ops.class_center_sample with fix_seed) for labels [3, 3, 1], 20
    # classes, 10 samples: a std::mt19937_64(123), and the global generator after paddle.seed(5)
    lab = np.array([3, 3, 1])
    remapped, got = _sample(lab, 20, 10, MT19937_64(123, seed_seq=False), fresh=True)
    assert remapped.tolist() == [1, 1, 0]
    assert got.tolist() == [1, 3, 6, 11, 18, 14, 19, 5, 16, 9]
    paddle.seed(5)
    from paddle_compat._core import random as R

    _, got = _sample(lab, 20, 10, R.default_generator.engine, fresh=False)
    assert got.tolist() == [1, 3, 18, 10, 8, 13, 6, 14, 19, 7]


def test_class_center_sample_negatives():
    lab = np.array([40, 7, 7, 999, 3, 40])
    paddle.seed(11)
    before = paddle.rand([4]).numpy()
    paddle.seed(11)
    outs = [F.class_center_sample(_t(lab), 1000, 60) for _ in range(2)]
    np.testing.assert_array_equal(paddle.rand([4]).numpy(), before)  # global stream untouched
    for remapped, sampled in outs:
        s = sampled.numpy()
        assert sampled.dtype == remapped.dtype == paddle.int64 and s.shape == (60,)
        assert s[:4].tolist() == [3, 7, 40, 999]  # positives first, ascending
        assert len(set(s.tolist())) == 60 and s.min() >= 0 and s.max() < 1000
        np.testing.assert_array_equal(s[remapped.numpy()], lab)
    assert outs[0][1].numpy().tolist() != outs[1][1].numpy().tolist()  # not seeded, as Paddle


def test_class_center_sample_is_eager_only():
    fn = paddle.jit.to_static(lambda y: F.class_center_sample(y, 10, 4), full_graph=True)
    with pytest.raises(Exception, match="data-dependent output shape"):
        for _ in range(3):  # the first call may run eagerly (to_static discovers state)
            fn(_t(np.array([1, 2])))
