"""Layer wrappers of the sequence/structured losses (issue 10) and rms_norm, whose Paddle 3.3.1
CPU build has no kernel (checked against its documented formula). Functional values and
gradients are checked against Paddle in tests/cases/nn_loss_extra.py."""

from __future__ import annotations

import numpy as np
import paddle.nn.functional as F
import pytest

import paddle


def _t(a, grad=False):
    return paddle.to_tensor(a, stop_gradient=not grad)


def test_ctc_layer_matches_functional():
    rs = np.random.RandomState(0)
    x = _t(rs.randn(5, 2, 4).astype("float32"), grad=True)
    lab = _t(np.array([[1, 2, 2], [3, 1, 0]], "int32"))
    il, ll = _t(np.array([5, 4])), _t(np.array([3, 2]))
    layer = paddle.nn.CTCLoss(blank=0, reduction="sum")
    out = layer(x, lab, il, ll, norm_by_times=True)
    ref = F.ctc_loss(x, lab, il, ll, reduction="sum", norm_by_times=True)
    np.testing.assert_allclose(out.numpy(), ref.numpy())
    np.testing.assert_allclose(out.numpy(), 7.6254177, rtol=1e-6)  # Paddle 3.3.1
    out.backward()
    assert x.grad.shape == [5, 2, 4]


def test_ctc_under_to_static():
    rs = np.random.RandomState(0)
    x = _t(rs.randn(5, 2, 4).astype("float32"))
    lab = _t(np.array([[1, 2, 2], [3, 1, 0]], "int32"))
    il, ll = _t(np.array([5, 4])), _t(np.array([3, 2]))
    fn = paddle.jit.to_static(lambda a, b, c, d: F.ctc_loss(a, b, c, d), full_graph=True)
    np.testing.assert_allclose(fn(x, lab, il, ll).numpy(), 1.4840411, rtol=1e-6)


def test_rnnt_layer():
    rs = np.random.RandomState(0)
    x = _t(rs.randn(2, 4, 4, 5).astype("float32"))
    lab = _t(np.array([[1, 2, 3], [4, 1, 0]], "int32"))
    il, ll = _t(np.array([4, 3], "int32")), _t(np.array([3, 2], "int32"))
    out = paddle.nn.RNNTLoss(reduction="none")(x, lab, il, ll)
    np.testing.assert_allclose(out.numpy(), [-2.2460742, -5.0086813], rtol=1e-6)  # Paddle


def test_multi_label_margin_layer():
    x = _t(np.array([[0.1, 0.2, 0.4, 0.8]], "float32"))
    y = _t(np.array([[3, 0, -1, 1]]))
    out = paddle.nn.MultiLabelMarginLoss(reduction="none")(x, y)
    # targets {3, 0} against non-targets {1, 2}: (0.4 + 0.6 + 0.1 + 1.3 - ...) / 4
    expect = sum(max(0, 1 - (x.numpy()[0, j] - x.numpy()[0, k])) for j in (3, 0) for k in (1, 2))
    np.testing.assert_allclose(out.numpy(), [expect / 4], rtol=1e-6)
    with pytest.raises(ValueError):
        paddle.nn.MultiLabelMarginLoss(reduction="avg")


def test_hsigmoid_layer_parameters():
    layer = paddle.nn.HSigmoidLoss(3, 6)
    assert [(n, p.shape) for n, p in layer.named_parameters()] == [
        ("weight", [5, 3]),
        ("bias", [5, 1]),
    ]
    custom = paddle.nn.HSigmoidLoss(3, 6, is_custom=True, bias_attr=False)
    assert [p.shape for p in custom.parameters()] == [[6, 3]]
    x = _t(np.random.RandomState(1).randn(4, 3).astype("float32"))
    out = layer(x, _t(np.array([0, 5, 2, 3])))
    ref = F.hsigmoid_loss(x, _t(np.array([0, 5, 2, 3])), 6, layer.weight, layer.bias)
    np.testing.assert_allclose(out.numpy(), ref.numpy())
    assert out.shape == [4, 1]


def test_adaptive_log_softmax_layer():
    paddle.seed(0)
    m = paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, head_bias=True)
    assert list(m.state_dict()) == ["head_weight", "head_bias"]  # tails unregistered, as Paddle
    assert [[list(t.shape) for t in pair] for pair in m.tail_weights] == [
        [[8, 4], [4, 3]],
        [[8, 2], [2, 4]],
    ]
    x = _t(np.random.RandomState(0).randn(5, 8).astype("float32"))
    y = _t(np.array([0, 4, 9, 2, 7]))
    out, loss = m(x, y)
    lp = m.log_prob(x)
    assert lp.shape == [5, 10]
    np.testing.assert_allclose(np.exp(lp.numpy()).sum(1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(out.numpy(), lp.numpy()[np.arange(5), y.numpy()], rtol=1e-5)
    np.testing.assert_allclose(loss.numpy(), -out.numpy().mean(), rtol=1e-6)
    pred = m.predict(x)
    assert pred.dtype == paddle.float32
    np.testing.assert_array_equal(pred.numpy(), lp.numpy().argmax(1))
    with pytest.raises(ValueError):
        paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3])


def test_rms_norm_formula():
    rs = np.random.RandomState(0)
    xv = rs.randn(2, 3, 4).astype("float32")
    wv = (rs.rand(3, 4) + 0.5).astype("float32")
    x, w = _t(xv, grad=True), _t(wv, grad=True)
    out, invvar = F.rms_norm(x, [3, 4], w, eps=1e-6)
    inv = 1 / np.sqrt((xv**2).mean(axis=(1, 2)) + 1e-6)
    np.testing.assert_allclose(invvar.numpy(), inv, rtol=1e-5)
    np.testing.assert_allclose(out.numpy(), xv * inv[:, None, None] * wv, rtol=1e-5)
    out.sum().backward()
    assert x.grad.shape == [2, 3, 4] and w.grad.shape == [3, 4]
    o2, _ = F.rms_norm(x, 4)
    assert o2.shape == [2, 3, 4]
    with pytest.raises(ValueError):
        F.rms_norm(x, [3])


@pytest.mark.parametrize("label", [6, 9, -6, -40])
def test_hsigmoid_label_outside_the_default_tree_is_an_error(label):
    # Paddle reads past the weight's rows above the range and crashes below it
    x = _t(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError, match=f"label \\({label}\\)"):
        F.hsigmoid_loss(x, _t(np.array([0, label])), 6, _t(np.ones((5, 3), "float32")))
