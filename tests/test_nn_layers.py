"""paddle.nn layers and random functional ops: what golden values can't express.

Default-initializer numbers were measured on real Paddle 3.3.1 (seeded, large layers):
  Linear(400, 300).weight       U(-0.09258, 0.09258)      XavierUniform, fans (in, out)
  Conv2D(16, 32, 3).weight      N(0, 0.1179)              std sqrt(2 / (in_channels * k*k))
  Conv2D(64, 256, 3, groups=4)  std 0.0590                groups do not enter the std
  Conv2DTranspose(16, 32, 3)    U(-0.1178, 0.1178)        XavierUniform over [in, out/g, k, k]
  Embedding(1000, 64).weight    U(-0.07509, 0.07509)      XavierUniform, padding row zeroed
  Bilinear(20, 30, 40).weight   U(-0.05773, 0.05773)      XavierUniform over [out, in1, in2]
  biases 0; BatchNorm/LayerNorm/GroupNorm/InstanceNorm weight 1; BN _mean 0, _variance 1;
  PReLU weight = init (0.25).
"""

from __future__ import annotations

import math

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F
import pytest

import paddle


@pytest.fixture(autouse=True)
def _seed():
    paddle.seed(2024)


def _np(t):
    return np.asarray(t.numpy(), dtype=np.float64)


# -- default initializers ---------------------------------------------------------------------
def _uniform_bound(w, bound):
    a = _np(w)
    assert a.max() <= bound + 1e-6 and a.min() >= -bound - 1e-6
    assert a.max() > 0.95 * bound and a.min() < -0.95 * bound
    assert abs(a.std() - bound / math.sqrt(3)) < 0.05 * bound / math.sqrt(3)


@pytest.mark.parametrize(
    "make,bound",
    [
        (lambda: nn.Linear(400, 300).weight, math.sqrt(6 / 700)),
        (lambda: nn.Conv2DTranspose(16, 32, 3).weight, math.sqrt(6 / (32 * 9 + 16 * 9))),
        (lambda: nn.Conv2DTranspose(32, 16, 3, groups=4).weight, math.sqrt(6 / (4 * 9 + 32 * 9))),
        (lambda: nn.Embedding(1000, 64).weight, math.sqrt(6 / 1064)),
        (lambda: nn.Bilinear(20, 30, 40).weight, math.sqrt(6 / (600 + 1200))),
    ],
)
def test_xavier_uniform_defaults(make, bound):
    _uniform_bound(make(), bound)


@pytest.mark.parametrize(
    "make,std",
    [
        (lambda: nn.Conv2D(16, 32, 3).weight, math.sqrt(2 / 144)),
        (lambda: nn.Conv2D(64, 256, 3, groups=4).weight, math.sqrt(2 / 576)),
        (lambda: nn.Conv1D(16, 32, 5).weight, math.sqrt(2 / 80)),
        (lambda: nn.Conv3D(8, 16, 3).weight, math.sqrt(2 / 216)),
    ],
)
def test_conv_normal_defaults(make, std):
    a = _np(make())
    assert abs(a.mean()) < 0.05 * std
    assert abs(a.std() - std) < 0.05 * std


def test_constant_defaults():
    bn = nn.BatchNorm2D(3)
    np.testing.assert_array_equal(_np(bn.weight), 1)
    np.testing.assert_array_equal(_np(bn.bias), 0)
    np.testing.assert_array_equal(_np(bn._mean), 0)
    np.testing.assert_array_equal(_np(bn._variance), 1)
    assert bn._mean.stop_gradient and not bn._mean.trainable and bn._mean.persistable
    np.testing.assert_array_equal(_np(nn.Linear(3, 4).bias), 0)
    np.testing.assert_array_equal(_np(nn.LayerNorm([2, 3]).weight), np.ones(6))
    np.testing.assert_array_equal(_np(nn.InstanceNorm2D(2).scale), 1)
    np.testing.assert_allclose(_np(nn.PReLU(3, 0.1)._weight), 0.1, rtol=1e-7)
    np.testing.assert_array_equal(_np(nn.Embedding(5, 3, padding_idx=-2).weight)[3], 0)


def test_weight_attr_initializer_and_names():
    lin = nn.Linear(
        2,
        3,
        weight_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(0.5)),
        bias_attr=False,
    )
    np.testing.assert_array_equal(_np(lin.weight), 0.5)
    assert lin.bias is None
    prefix = lin.full_name()
    assert prefix.startswith("linear_") and lin.weight.name.startswith(prefix + ".w_")
    bn = nn.BatchNorm2D(2)
    names = [p.name.split(".")[-1] for p in bn.parameters()]
    assert names == ["w_0", "b_0", "w_1", "w_2"]


# -- state_dict round trip --------------------------------------------------------------------
def test_state_dict_round_trip():
    def net():
        return nn.Sequential(
            nn.Conv2D(1, 2, 3), nn.BatchNorm2D(2), nn.ReLU(), nn.Flatten(), nn.Linear(18, 3)
        )

    a, b = net(), net()
    a.train()
    a(paddle.to_tensor(np.random.default_rng(0).standard_normal((2, 1, 5, 5)), dtype="float32"))
    sd = a.state_dict()
    assert list(sd) == [
        "0.weight",
        "0.bias",
        "1.weight",
        "1.bias",
        "1._mean",
        "1._variance",
        "4.weight",
        "4.bias",
    ]
    b.set_state_dict(sd)
    for k, v in b.state_dict().items():
        np.testing.assert_array_equal(_np(v), _np(sd[k]))
    x = paddle.to_tensor(np.ones((1, 1, 5, 5), "float32"))
    a.eval()
    b.eval()
    np.testing.assert_allclose(_np(a(x)), _np(b(x)), rtol=1e-6)


# -- training vs eval -------------------------------------------------------------------------
def test_dropout_training_values():
    x = paddle.ones([200, 50])
    d = nn.Dropout(0.3)
    y = _np(d(x))
    assert set(np.unique(np.round(y, 5))) <= {0.0, round(1 / 0.7, 5)}
    assert abs((y == 0).mean() - 0.3) < 0.03
    d.eval()
    np.testing.assert_array_equal(_np(d(x)), 1)
    y2 = _np(nn.Dropout(0.3, mode="downscale_in_infer")(x))
    assert set(np.unique(y2)) <= {0.0, 1.0}


def test_dropout_masks_are_fresh_and_seeded():
    x = paddle.ones([64])
    paddle.seed(1)
    a, b = _np(F.dropout(x, 0.5)), _np(F.dropout(x, 0.5))
    assert not np.array_equal(a, b)
    paddle.seed(1)
    np.testing.assert_array_equal(_np(F.dropout(x, 0.5)), a)


def test_dropout_axis_and_channel_dropout():
    y = _np(F.dropout(paddle.ones([8, 40]), 0.5, axis=1))
    assert (y == y[0]).all()  # one mask per column, shared along axis 0
    z = _np(nn.Dropout2D(0.5)(paddle.ones([4, 16, 3, 3])))
    per_channel = z.reshape(4, 16, -1)
    assert (per_channel == per_channel[..., :1]).all()
    assert set(np.unique(per_channel)) <= {0.0, 2.0}


def test_dropout_gradient_matches_mask():
    x = paddle.to_tensor(np.full((10, 10), 3.0, "float32"), stop_gradient=False)
    y = F.dropout(x, 0.4)
    y.sum().backward()
    np.testing.assert_allclose(_np(x.grad), (_np(y) != 0) / 0.6, rtol=1e-6)


def test_alpha_dropout_two_values():
    y = _np(nn.AlphaDropout(0.5)(paddle.ones([100, 10])))
    np.testing.assert_allclose(sorted(np.unique(np.round(y, 4))), [-0.7792, 1.6656], atol=1e-4)


def test_rrelu_training_slopes():
    x = paddle.full([1000], -1.0)
    y = -_np(F.rrelu(x, 0.1, 0.3, training=True))
    assert y.min() >= 0.1 and y.max() <= 0.3 and y.std() > 0.03
    np.testing.assert_allclose(_np(nn.RReLU(0.1, 0.3).eval()(x)), -0.2, rtol=1e-6)


def test_gumbel_softmax():
    x = paddle.to_tensor(
        np.random.default_rng(0).standard_normal((6, 5)), dtype="float32", stop_gradient=False
    )
    soft = F.gumbel_softmax(x, temperature=0.5)
    np.testing.assert_allclose(_np(soft).sum(-1), 1, rtol=1e-5)
    hard = F.gumbel_softmax(x, hard=True)
    h = _np(hard)
    assert set(np.unique(h)) == {0.0, 1.0} and (h.sum(-1) == 1).all()
    (hard * paddle.to_tensor(np.arange(5, dtype="float32"))).sum().backward()
    assert np.abs(_np(x.grad)).sum() > 0  # straight-through gradient


def test_batchnorm_running_stats_formula():
    rng = np.random.default_rng(3)
    bn = nn.BatchNorm1D(4, momentum=0.8)
    mean, var = np.zeros(4), np.ones(4)
    for _ in range(3):
        a = rng.standard_normal((16, 4)) * 3 + 1
        bn(paddle.to_tensor(a, dtype="float32"))
        mean = 0.8 * mean + 0.2 * a.mean(0)
        var = 0.8 * var + 0.2 * a.var(0)  # biased batch variance, as Paddle
    np.testing.assert_allclose(_np(bn._mean), mean, rtol=1e-5)
    np.testing.assert_allclose(_np(bn._variance), var, rtol=1e-5)
    bn.eval()
    x = rng.standard_normal((3, 4))
    y = _np(bn(paddle.to_tensor(x, dtype="float32")))
    np.testing.assert_allclose(y, (x - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5)


def test_to_static_parity_and_state_write_back():
    net = nn.Sequential(
        nn.Conv2D(1, 2, 3), nn.BatchNorm2D(2), nn.ReLU(), nn.Flatten(), nn.Linear(18, 3)
    )
    ref = nn.Sequential(
        nn.Conv2D(1, 2, 3), nn.BatchNorm2D(2), nn.ReLU(), nn.Flatten(), nn.Linear(18, 3)
    )
    ref.set_state_dict(net.state_dict())
    x = paddle.to_tensor(np.random.default_rng(5).standard_normal((2, 1, 5, 5)), dtype="float32")
    static = paddle.jit.to_static(net)
    for _ in range(2):
        np.testing.assert_allclose(_np(static(x)), _np(ref(x)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(net[1]._mean), _np(ref[1]._mean), rtol=1e-5, atol=1e-7)


def test_layer_gradients_reach_parameters():
    lin = nn.Linear(3, 2)
    x = paddle.to_tensor(np.ones((4, 3), "float32"))
    lin(x).sum().backward()
    np.testing.assert_allclose(_np(lin.weight.grad), np.full((3, 2), 4.0))
    np.testing.assert_allclose(_np(lin.bias.grad), np.full(2, 4.0))


def test_embedding_padding_row_gets_no_gradient():
    emb = nn.Embedding(4, 2, padding_idx=1)
    emb(paddle.to_tensor(np.array([1, 1, 2]))).sum().backward()
    g = _np(emb.weight.grad)
    np.testing.assert_array_equal(g[1], 0)
    np.testing.assert_array_equal(g[2], 1)


def test_cross_entropy_under_to_static_has_no_host_checks():
    f = paddle.jit.to_static(lambda x, y: F.cross_entropy(x, y))
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((4, 3)), dtype="float32")
    y = paddle.to_tensor(np.array([0, 2, 1, 1]))
    np.testing.assert_allclose(_np(f(x, y)), _np(F.cross_entropy(x, y)), rtol=1e-6)
