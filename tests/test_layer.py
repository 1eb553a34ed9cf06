"""nn.Layer and initializers: what goldens cannot express (random initializer statistics,
the training guard for to_static, deepcopy, casts where Paddle's CPU build is not the
reference) plus the layer harness on a small custom layer."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from layer_harness import check_layer

import paddle
from paddle_compat._core import trace_state

nn = paddle.nn
I = nn.initializer  # noqa: E741
PA = paddle.framework.ParamAttr

# ---------------------------------------------------------------------------------------------
# Initializer statistics measured with real Paddle 3.3.1 (paddle.seed(1), CPU): for each
# (initializer, shape) the observed mean / std / min / max of one draw. Bounds of uniform
# draws are exact limits; the rest are checked statistically (our RNG differs from Paddle's).
# ---------------------------------------------------------------------------------------------
S = (200, 300)
MEASURED = [
    # name, initializer factory, shape, mean, std, min, max, exact_bounds
    ("default weight", None, S, 0.0, 0.0634, -0.1095, 0.1095, True),
    ("default weight 4d", None, (64, 32, 3, 3), 0.0, 0.0479, -0.0833, 0.0833, True),
    ("default weight 1d", None, (3000,), 0.0, 0.0183, -0.0316, 0.0316, True),
    ("Constant()", lambda: I.Constant(), S, 0.0, 0.0, 0.0, 0.0, True),
    ("Constant(2.5)", lambda: I.Constant(2.5), S, 2.5, 0.0, 2.5, 2.5, True),
    ("Normal()", lambda: I.Normal(), S, 0.0, 1.0009, -4.50, 4.57, False),
    ("Normal(1,3)", lambda: I.Normal(1.0, 3.0), S, 1.0, 3.0045, -11.1, 13.6, False),
    ("Uniform()", lambda: I.Uniform(), S, 0.0, 0.5789, -1.0, 1.0, True),
    ("Uniform(-3,5)", lambda: I.Uniform(-3.0, 5.0), S, 1.0, 2.3082, -3.0, 5.0, True),
    ("TruncatedNormal()", lambda: I.TruncatedNormal(), S, 0.0, 0.8800, -2.0, 2.0, True),
    (
        "TruncatedNormal(1,3)",
        lambda: I.TruncatedNormal(1.0, 3.0),
        S,
        0.1384,
        1.1132,
        -2.0,
        2.0,
        True,
    ),
    (
        "TruncatedNormal(0,1,-1,3)",
        lambda: I.TruncatedNormal(0.0, 1.0, -1.0, 3.0),
        S,
        0.2834,
        0.7861,
        -1.0,
        3.0,
        True,
    ),
    (
        "TruncatedNormal(0,10)",
        lambda: I.TruncatedNormal(0.0, 10.0),
        S,
        0.0,
        1.1534,
        -2.0,
        2.0,
        True,
    ),
    ("XavierNormal", lambda: I.XavierNormal(), S, 0.0, 0.0632, -0.29, 0.25, False),
    ("XavierUniform", lambda: I.XavierUniform(), S, 0.0, 0.0631, -0.1095, 0.1095, True),
    (
        "XavierUniform(10,20)",
        lambda: I.XavierUniform(fan_in=10, fan_out=20),
        S,
        0.0,
        0.2590,
        -0.4472,
        0.4472,
        True,
    ),
    (
        "XavierUniform(gain=2)",
        lambda: I.XavierUniform(gain=2.0),
        S,
        0.0,
        0.1263,
        -0.2191,
        0.2191,
        True,
    ),
    ("XavierNormal 4d", lambda: I.XavierNormal(), (64, 32, 3, 3), 0.0, 0.0480, -0.18, 0.18, False),
    (
        "XavierUniform 4d",
        lambda: I.XavierUniform(),
        (64, 32, 3, 3),
        0.0,
        0.0481,
        -0.0833,
        0.0833,
        True,
    ),
    (
        "XavierUniform 3d",
        lambda: I.XavierUniform(),
        (64, 32, 5),
        0.0,
        0.0644,
        -0.1118,
        0.1118,
        True,
    ),
    ("KaimingNormal", lambda: I.KaimingNormal(), S, 0.0, 0.1000, -0.41, 0.45, False),
    ("KaimingUniform", lambda: I.KaimingUniform(), S, 0.0, 0.0998, -0.1732, 0.1732, True),
    (
        "KaimingNormal 4d",
        lambda: I.KaimingNormal(),
        (64, 32, 3, 3),
        0.0,
        0.0834,
        -0.33,
        0.39,
        False,
    ),
    (
        "KaimingUniform 4d",
        lambda: I.KaimingUniform(),
        (64, 32, 3, 3),
        0.0,
        0.0833,
        -0.1443,
        0.1443,
        True,
    ),
    (
        "KaimingNormal(fan_in=50)",
        lambda: I.KaimingNormal(fan_in=50.0),
        S,
        0.0,
        0.2007,
        -0.89,
        0.87,
        False,
    ),
    (
        "KaimingNormal(leaky 0.2)",
        lambda: I.KaimingNormal(negative_slope=0.2, nonlinearity="leaky_relu"),
        S,
        0.0,
        0.0978,
        -0.38,
        0.51,
        False,
    ),
    (
        "KaimingUniform(tanh)",
        lambda: I.KaimingUniform(nonlinearity="tanh"),
        S,
        0.0,
        0.1184,
        -0.2041,
        0.2041,
        True,
    ),
    ("KaimingNormal 1d", lambda: I.KaimingNormal(), (3000,), 0.0, 0.0259, -0.08, 0.08, False),
]


def _make(init, shape, dtype="float32", is_bias=False):
    holder = nn.Layer()
    attr = PA(initializer=init()) if init is not None else None
    return holder.create_parameter(list(shape), attr=attr, dtype=dtype, is_bias=is_bias)


@pytest.mark.parametrize("row", MEASURED, ids=[r[0] for r in MEASURED])
def test_initializer_statistics_match_paddle(row):
    name, init, shape, mean, std, lo, hi, exact = row
    paddle.seed(123)
    a = np.asarray(_make(init, shape).numpy(), dtype=np.float64)
    n = a.size
    assert a.dtype == np.float64 and list(a.shape) == list(shape)
    # std within ~5 sigma of its sampling error (plus a small floor), mean within 5 sigma
    tol_std = max(5 * std / math.sqrt(2 * n) * 1.5, 1e-7)
    assert abs(a.std() - std) <= tol_std + 0.01 * std, (name, a.std(), std)
    assert abs(a.mean() - mean) <= 5 * max(std, 1e-7) / math.sqrt(n) + 1e-7, (name, a.mean())
    if exact:
        assert a.min() >= lo - 1e-4 and a.max() <= hi + 1e-4, (name, a.min(), a.max())
        if std > 0:  # the draw reaches close to its limits, as Paddle's does
            span = hi - lo
            assert a.min() <= lo + 0.02 * span and a.max() >= hi - 0.02 * span
    else:
        assert a.min() < mean - 3 * std and a.max() > mean + 3 * std


def test_initializer_dtypes_and_reproducibility():
    paddle.seed(7)
    h = _make(lambda: I.Normal(), S, dtype="float16")
    d = _make(lambda: I.Normal(), S, dtype="float64")
    b = _make(lambda: I.Uniform(), S, dtype="bfloat16")
    assert str(h.dtype) == "paddle.float16" and str(d.dtype) == "paddle.float64"
    assert str(b.dtype) == "paddle.bfloat16"
    # measured: Normal fp16 std 1.0005, f64 std 0.9997
    assert abs(np.asarray(h.numpy(), np.float64).std() - 1.0) < 0.02
    assert abs(np.asarray(d.numpy()).std() - 1.0) < 0.02
    paddle.seed(7)
    h2 = _make(lambda: I.Normal(), S, dtype="float16")
    np.testing.assert_array_equal(h.numpy(), h2.numpy())
    h3 = _make(lambda: I.Normal(), S, dtype="float16")
    assert not np.array_equal(h.numpy(), h3.numpy())


@pytest.mark.parametrize("shape,gain", [((30, 50), 1.0), ((50, 30), 2.0), ((8, 2, 3, 3), 1.0)])
def test_orthogonal(shape, gain):
    w = np.asarray(_make(lambda: I.Orthogonal(gain=gain), shape).numpy(), np.float64)
    m = w.reshape(shape[0], -1)
    if m.shape[0] <= m.shape[1]:
        np.testing.assert_allclose(m @ m.T, gain**2 * np.eye(m.shape[0]), atol=1e-5)
    else:
        np.testing.assert_allclose(m.T @ m, gain**2 * np.eye(m.shape[1]), atol=1e-5)


# Default initializers of Paddle 3.3.1's layers, measured (std / bounds of a draw):
#   create_parameter: weight XavierUniform with fans (shape[0], shape[1]) for 2-D,
#     (shape[1]*rf, shape[0]*rf) for >2-D, (n, n) for 1-D; bias Constant(0).
#   Linear / Embedding / MultiHeadAttention / Bilinear / Conv*Transpose weight: that default.
#   Conv1D/2D/3D weight: Normal(0, sqrt(2 / (in_channels * prod(kernel)))) -- groups ignored
#     (Conv2D(32, 64, 3, groups=4): std 0.0846 ~ sqrt(2/288)); conv bias 0.
#   BatchNorm/LayerNorm/GroupNorm: weight 1, bias 0; BatchNorm _mean 0, _variance 1.
#   LSTM/GRU/SimpleRNN(+Cell): every weight and bias U(-1/sqrt(hidden), 1/sqrt(hidden)).
#   PReLU: Constant(0.25).
LAYER_DEFAULTS = [
    # layer factory, param, kind, value (bound for 'uniform', std for 'normal')
    ("Linear", lambda: nn.Linear(200, 300), "weight", "uniform", math.sqrt(6 / 500)),
    ("Linear", lambda: nn.Linear(200, 300), "bias", "const", 0.0),
    ("Conv2D", lambda: nn.Conv2D(32, 64, 3), "weight", "normal", math.sqrt(2 / 288)),
    ("Conv2D", lambda: nn.Conv2D(32, 64, 3, groups=4), "weight", "normal", math.sqrt(2 / 288)),
    ("Conv2D", lambda: nn.Conv2D(32, 64, 3), "bias", "const", 0.0),
    ("Conv1D", lambda: nn.Conv1D(32, 64, 5), "weight", "normal", math.sqrt(2 / 160)),
    (
        "Conv2DTranspose",
        lambda: nn.Conv2DTranspose(32, 64, 3),
        "weight",
        "uniform",
        math.sqrt(6 / 864),
    ),
    ("Embedding", lambda: nn.Embedding(1000, 64), "weight", "uniform", math.sqrt(6 / 1064)),
    ("BatchNorm2D", lambda: nn.BatchNorm2D(64), "weight", "const", 1.0),
    ("BatchNorm2D", lambda: nn.BatchNorm2D(64), "bias", "const", 0.0),
    ("BatchNorm2D", lambda: nn.BatchNorm2D(64), "_mean", "const", 0.0),
    ("BatchNorm2D", lambda: nn.BatchNorm2D(64), "_variance", "const", 1.0),
    ("LayerNorm", lambda: nn.LayerNorm(64), "weight", "const", 1.0),
    ("LayerNorm", lambda: nn.LayerNorm(64), "bias", "const", 0.0),
    ("LSTM", lambda: nn.LSTM(32, 64), "weight_ih_l0", "uniform", 0.125),
    ("LSTM", lambda: nn.LSTM(32, 64), "bias_hh_l0", "uniform", 0.125),
    ("GRUCell", lambda: nn.GRUCell(32, 64), "weight_hh", "uniform", 0.125),
    ("PReLU", lambda: nn.PReLU(), "_weight", "const", 0.25),
    (
        "MultiHeadAttention",
        lambda: nn.MultiHeadAttention(64, 4),
        "q_proj.weight",
        "uniform",
        math.sqrt(6 / 128),
    ),
    ("Bilinear", lambda: nn.Bilinear(20, 30, 40), "weight", "uniform", math.sqrt(6 / 1800)),
]


@pytest.mark.parametrize("row", LAYER_DEFAULTS, ids=[f"{r[0]}.{r[2]}" for r in LAYER_DEFAULTS])
def test_layer_default_initializers(row):
    cls, make, pname, kind, value = row
    if not hasattr(nn, cls):
        pytest.skip(f"paddle.nn.{cls} is not implemented yet")
    layer = make()
    p = dict(layer.named_parameters()).get(pname)
    if p is None:
        p = layer.state_dict()[pname]
    a = np.asarray(p.numpy(), np.float64)
    if kind == "const":
        np.testing.assert_array_equal(a, np.full_like(a, value))
    elif kind == "uniform":
        assert a.min() >= -value - 1e-6 and a.max() <= value + 1e-6
        assert abs(a.std() - value / math.sqrt(3)) < 0.05 * value
    else:
        assert abs(a.std() - value) < 0.05 * value and abs(a.mean()) < 0.05 * value


# ---------------------------------------------------------------------------------------------
# Layer behaviour
# ---------------------------------------------------------------------------------------------
class _Lin(nn.Layer):
    def __init__(self, i, o):
        super().__init__()
        self.weight = self.create_parameter([i, o])
        self.bias = self.create_parameter([o], is_bias=True)
        self.register_buffer("count", paddle.zeros([1], dtype="int64"))
        self.register_buffer("scale", paddle.ones([o]))

    def forward(self, x):
        return paddle.matmul(x, self.weight) * self.scale + self.bias


class _MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = _Lin(3, 4)
        self.fc2 = _Lin(4, 2)

    def forward(self, x):
        return self.fc2(paddle.tanh(self.fc1(x)))


def test_harness_on_custom_layer():
    x = np.linspace(-1, 1, 12).reshape(4, 3).astype("float32")
    res = check_layer(
        _MLP,
        x,
        expected_out_shape=[4, 2],
        expected_keys=[
            "fc1.weight",
            "fc1.bias",
            "fc1.count",
            "fc1.scale",
            "fc2.weight",
            "fc2.bias",
            "fc2.count",
            "fc2.scale",
        ],
    )
    assert list(res["out"].shape) == [4, 2]


def test_training_property_is_a_to_static_guard():
    m = _MLP()
    ctx = trace_state.TraceContext(0, {})
    prev = trace_state.set_current(ctx)
    try:
        assert m.fc1.training is True
    finally:
        trace_state.set_current(prev)
    guard = ctx.guards[(id(m.fc1), "training")]
    assert guard[1:] == ("training", True)
    m.eval()
    assert m.fc1.training is False and "training" in dir(m)


def test_astype_casts_as_documented():
    # Real Paddle 3.3.1's Layer.astype leaves parameters unchanged (PaddlePaddle/Paddle#76614,
    # acknowledged in its docstring); we cast every parameter and buffer, as documented.
    m = _MLP()
    w = m.fc1.weight
    assert m.astype("float64") is m
    assert m.fc1.weight is w and str(w.dtype) == "paddle.float64"
    assert str(m.fc1.scale.dtype) == "paddle.float64"
    assert str(m.fc1.count.dtype) == "paddle.float64"
    assert not w.stop_gradient


def test_float16_casts_floating_state_only():
    # Paddle's CPU build refuses float16() ("does not support float16"); the GPU build casts
    # floating parameters/buffers and leaves integer buffers, which is what we do everywhere.
    m = _MLP()
    m.float16(excluded_layers=[])
    assert str(m.fc1.weight.dtype) == "paddle.float16"
    assert str(m.fc1.count.dtype) == "paddle.int64"
    m = _MLP()
    m.float16(excluded_layers=_Lin)
    assert str(m.fc1.weight.dtype) == "paddle.float32"


def test_deepcopy_and_forward_cache():
    m = _MLP()
    x = paddle.ones([2, 3])
    y = m(x)
    d = copy.deepcopy(m)
    assert d.fc1.weight is not m.fc1.weight and d.fc1.weight.name == m.fc1.weight.name
    assert d.fc1.weight.optimize_attr == {"learning_rate": 1.0}
    np.testing.assert_allclose(d(x).numpy(), y.numpy())
    d.fc1.weight.set_value(np.zeros([3, 4], "float32"))
    assert not np.allclose(m.fc1.weight.numpy(), 0)


def test_hooks_fire_after_first_call():
    m = _Lin(2, 2)
    m(paddle.ones([1, 2]))  # built: fast path
    calls = []
    h = m.register_forward_post_hook(lambda layer, i, o: calls.append(1))
    m(paddle.ones([1, 2]))
    h.remove()
    m(paddle.ones([1, 2]))
    assert calls == [1]


def test_always_call_post_hook_runs_on_error():
    class Boom(nn.Layer):
        def forward(self, x):
            raise ValueError("boom")

    b = Boom()
    seen = []
    b.register_forward_post_hook(lambda layer, i, o: seen.append(o), always_call=True)
    with pytest.raises(ValueError):
        b(1)
    assert seen == [None]


def test_top_level_exports():
    if not hasattr(paddle, "ParamAttr"):
        pytest.skip("paddle.ParamAttr / paddle.create_parameter not exported yet")
    assert paddle.ParamAttr is paddle.framework.ParamAttr
    p = paddle.create_parameter([2, 3], "float32")
    assert p.name.startswith("create_parameter_") and p.name.endswith(".w_0")
    assert not p.stop_gradient and p.persistable
