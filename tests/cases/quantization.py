"""paddle.quantization / paddle.nn.quant vs real Paddle 3.3.1 on CPU: fake-quant forward and
straight-through gradients, moving-average scales, QAT/PTQ model rewriting (repr, state_dict
keys, config precedence), PTQ calibration and convert (integer weights and scales), linear
quant/dequant rounding, the llm.int8 weight layout and the weight-only output shapes.

Converted weights are compared as float32 values: Paddle keeps them as float32 holding integers,
paddle-compat stores int8 (see tests/test_quant.py)."""

import numpy as np
import paddle.nn as nn
from _util import expect_error, randn
from paddle.quantization import PTQ, QAT, QuantConfig
from paddle.quantization.observers import AbsmaxObserver, GroupWiseWeightObserver
from paddle.quantization.quanters import FakeQuanterWithAbsMaxObserver

import paddle

TOLERANCE = {"case_ptq_convert": (1e-5, 1e-5), "case_qat_conv_mlp": (1e-5, 1e-5)}


def T(a, grad=False):
    return paddle.to_tensor(np.asarray(a), stop_gradient=not grad)


def _set_params(layer, seed=0):
    for i, (_, p) in enumerate(layer.named_parameters()):
        p.set_value(randn(*p.shape, seed=seed + i) * 0.5)
    return layer


def _keys(layer):
    return [[k, list(v.shape)] for k, v in layer.state_dict().items()]


def _values(layer):
    return {k: np.asarray(v.numpy()).astype("float32") for k, v in layer.state_dict().items()}


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        return self.fc2(nn.functional.relu(self.fc1(x)))


class ConvNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 2, 3, padding=1)
        self.fc = nn.Linear(2 * 4 * 4, 3)

    def forward(self, x):
        x = nn.functional.relu(self.conv(x))
        return self.fc(paddle.flatten(x, 1))


def _fq():
    return FakeQuanterWithAbsMaxObserver(moving_rate=0.9)


# -- factories and config printing ------------------------------------------------------------
def case_factory_repr():
    return [
        repr(FakeQuanterWithAbsMaxObserver()),
        str(FakeQuanterWithAbsMaxObserver(moving_rate=0.5, bit_length=4)),
        repr(AbsmaxObserver()),
        repr(AbsmaxObserver(quant_bits=4)),
        str(QuantConfig(activation=_fq(), weight=AbsmaxObserver())),
        str(QuantConfig(activation=None, weight=None)),
    ]


# -- the fake quanter layer --------------------------------------------------------------------
def case_fake_quanter_layer():
    from paddle.quantization.quanters.abs_max import FakeQuanterWithAbsMaxObserverLayer

    layer = FakeQuanterWithAbsMaxObserverLayer(nn.Linear(2, 2), moving_rate=0.9)
    x = randn(4, 5, seed=1) * 3
    g = np.arange(20, dtype="float32").reshape(4, 5)
    out = {"init": [layer._scale, layer._state, layer._accum], "keys": _keys(layer)}
    for step in range(2):
        xt = T(x * (step + 1), grad=True)
        y = layer(xt)
        (y * T(g)).sum().backward()
        out[f"step{step}"] = [
            y,
            xt.grad,
            layer._scale.numpy(),
            layer._state.numpy(),
            layer._accum.numpy(),
        ]
    layer.eval()
    out["eval"] = [layer(T(x * 5)), layer._scale.numpy(), layer._state.numpy()]
    out["meta"] = [layer.bit_length(), layer.quant_axis(), layer.zero_points()]
    return out


def case_fake_quanter_rounding():
    from paddle.quantization.quanters.abs_max import FakeQuanterWithAbsMaxObserverLayer

    layer = FakeQuanterWithAbsMaxObserverLayer(nn.Linear(2, 2), bit_length=8)
    layer.eval()
    layer._scale.set_value(np.array([127.0], "float32"))
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 126.5, 127, 200, -300], "float32")
    l4 = FakeQuanterWithAbsMaxObserverLayer(nn.Linear(2, 2), bit_length=4)
    l4.eval()
    l4._scale.set_value(np.array([7.0], "float32"))
    return [layer(T(x)), l4(T(x / 10))]


# -- QAT ---------------------------------------------------------------------------------------
def case_qat_mlp():
    model = _set_params(MLP())
    qmodel = QAT(QuantConfig(activation=_fq(), weight=_fq())).quantize(model)
    x = T(randn(5, 8, seed=3), grad=True)
    y1 = qmodel(x)
    y2 = qmodel(x * 0.5)
    (y1.sum() + (y2 * y2).sum()).backward()
    grads = {k: p.grad for k, p in qmodel.named_parameters() if p.grad is not None}
    qmodel.eval()
    return {
        "repr": repr(qmodel),
        "keys": _keys(qmodel),
        "y1": y1,
        "y2": y2,
        "x_grad": x.grad,
        "grads": grads,
        "state": _values(qmodel),
        "eval": qmodel(x.detach()),
    }


def case_qat_conv_mlp():
    model = _set_params(ConvNet(), seed=10)
    qmodel = QAT(QuantConfig(activation=_fq(), weight=_fq())).quantize(model)
    x = T(randn(2, 1, 4, 4, seed=4), grad=True)
    y = qmodel(x)
    (y * y).sum().backward()
    return {
        "repr": repr(qmodel),
        "keys": _keys(qmodel),
        "y": y,
        "x_grad": x.grad,
        "conv_w_grad": qmodel.conv.weight.grad,
        "state": _values(qmodel),
    }


def case_qat_weight_only_config():
    model = _set_params(MLP())
    cfg = QuantConfig(activation=None, weight=None)
    cfg.add_type_config(nn.Linear, weight=_fq())
    qmodel = QAT(cfg).quantize(model)
    y = qmodel(T(randn(3, 8, seed=5)))
    return {"repr": repr(qmodel), "keys": _keys(qmodel), "y": y}


def case_config_precedence():
    q = {r: FakeQuanterWithAbsMaxObserver(moving_rate=r) for r in (0.5, 0.7, 0.8)}

    class M(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(4, 4)
            self.fc2 = nn.Linear(4, 4)
            self.act = nn.ReLU()
            self.sub = nn.Sequential(nn.Linear(4, 4), nn.Tanh())

        def forward(self, x):
            return self.sub(self.act(self.fc2(self.fc1(x))))

    def rates(qm):
        return [
            [n, layer._moving_rate]
            for n, layer in qm.named_sublayers()
            if hasattr(layer, "_moving_rate")
        ]

    out = []
    m = M()
    cfg = QuantConfig(activation=q[0.5], weight=q[0.5])
    cfg.add_name_config(m.sub.full_name(), weight=q[0.8])
    qm = QAT(cfg).quantize(m)
    out.append([repr(qm), rates(qm)])
    m = M()
    cfg = QuantConfig(activation=None, weight=None)
    cfg.add_type_config(nn.ReLU, activation=q[0.7])
    cfg.add_type_config(nn.Linear, weight=q[0.5])
    cfg.add_layer_config(m.fc1, weight=q[0.8])
    cfg.add_type_config(nn.Linear, weight=q[0.7])
    qm = QAT(cfg).quantize(m, inplace=True)
    out.append([repr(qm), rates(qm), repr(m) == repr(qm)])
    m = M()
    cfg = QuantConfig(activation=None, weight=None)
    cfg.add_name_config(m.sub.full_name(), weight=q[0.8], activation=q[0.8])
    cfg.add_type_config(nn.Linear, weight=q[0.7])
    qm = QAT(cfg).quantize(m)
    out.append([repr(qm), rates(qm)])
    out.append(repr(QAT(QuantConfig(activation=None, weight=None)).quantize(M())))
    return out


def case_quantize_errors():
    m = MLP()
    m.eval()
    t = MLP()
    return [
        expect_error(lambda: QAT(QuantConfig(activation=_fq(), weight=_fq())).quantize(m)),
        expect_error(
            lambda: PTQ(QuantConfig(activation=AbsmaxObserver(), weight=None)).quantize(t)
        ),
        expect_error(lambda: QuantConfig()),
    ]


# -- PTQ ---------------------------------------------------------------------------------------
def _ptq_model(remain_weight=False):
    model = _set_params(ConvNet(), seed=20)
    model.eval()
    ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=AbsmaxObserver()))
    observed = ptq.quantize(model)
    outs = [observed(T(randn(3, 1, 4, 4, seed=s))) for s in (6, 7)]
    return model, ptq, observed, outs


def case_ptq_observe():
    model, ptq, observed, outs = _ptq_model()
    x = T(randn(3, 1, 4, 4, seed=6))
    return {
        "repr": repr(observed),
        "keys": _keys(observed),
        "outs": outs,
        "float_out": model(x),
        "scales": [
            observed.conv.weight_quanter.scales().numpy(),
            observed.conv.activation_quanter.scales().numpy(),
            observed.fc.weight_quanter.scales().numpy(),
            observed.fc.activation_quanter.scales().numpy(),
        ],
        "meta": [
            observed.fc.activation_quanter.bit_length(),
            observed.fc.activation_quanter.quant_axis(),
            observed.fc.activation_quanter.zero_points().numpy(),
        ],
    }


def case_ptq_convert():
    _, ptq, observed, _ = _ptq_model()
    converted = ptq.convert(observed)
    x = T(randn(3, 1, 4, 4, seed=8))
    return {
        "repr": repr(converted),
        "keys": _keys(converted),
        "values": _values(converted),
        "out": converted(x).numpy(),
    }


def case_ptq_convert_remain_weight():
    _, ptq, observed, _ = _ptq_model()
    converted = ptq.convert(observed, remain_weight=True)
    x = T(randn(3, 1, 4, 4, seed=8))
    return {
        "repr": repr(converted),
        "keys": _keys(converted),
        "values": _values(converted),
        "out": converted(x).numpy(),
    }


def case_ptq_groupwise():
    model = _set_params(nn.Sequential(nn.Linear(256, 6)), seed=30)
    model.eval()
    ptq = PTQ(QuantConfig(activation=None, weight=GroupWiseWeightObserver(quant_bits=8)))
    observed = ptq.quantize(model)
    x = T(randn(2, 256, seed=9))
    observed(x)
    scales = observed[0].weight_quanter.scales().numpy()
    converted = ptq.convert(observed)
    return {
        "repr": repr(observed),
        "keys": _keys(observed),
        "scales": scales,
        "converted_repr": repr(converted),
        "converted_keys": _keys(converted),
        "values": _values(converted),
        "out": converted(x).numpy(),
    }


def case_observe_wrapper():
    m = nn.Sequential(nn.Tanh())
    m.eval()
    ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=None))
    qm = ptq.quantize(m)
    x = T(np.array([[-3.0, -1, 0.3, 2, 5]], "float32"))
    y = qm(x)
    cm = ptq.convert(qm)
    return {
        "repr": repr(qm),
        "y": y,
        "scale": qm[0]._observer.scales().numpy(),
        "converted": repr(cm),
        "keys": _keys(cm),
        "cy": cm(x),
    }


# -- converted-model building blocks -----------------------------------------------------------
def case_linear_quanter():
    from paddle.nn.quant.format import LinearDequanter, LinearQuanter, LinearQuanterDequanter

    x = T(
        np.array(
            [-3, -2.01, -2, -1.99, -1, -0.0079, 0.0079, 0.00787, 0.5, 1.5, 2.0, 2.5], "float32"
        )
    )
    q = LinearQuanter(T(np.float32(2.0)), zero_point=T(np.float32(0.0)), bit_length=8)
    d = LinearDequanter(T(np.float32(2.0)), zero_point=T(np.float32(0.0)), bit_length=8)
    qd = LinearQuanterDequanter(q, d)
    half = T(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 126.5, 127], "float32"))
    q127 = LinearQuanter(T(np.float32(127.0)), zero_point=T(np.float32(0.0)), bit_length=8)
    q4 = LinearQuanter(T(np.float32(2.0)), zero_point=T(np.float32(0.0)), bit_length=4)
    chan = LinearQuanter(
        T(np.array([1.0, 2, 3, 4], "float32")),
        zero_point=T(np.zeros(4, "float32")),
        quant_axis=1,
        bit_length=8,
    )
    return [
        q(x),
        d(q(x)),
        qd(x),
        repr(qd),
        _keys(qd),
        q127(half),
        q4(x),
        chan(T(randn(3, 4, seed=11))),
    ]


# -- paddle.nn.quant ---------------------------------------------------------------------------
def case_llm_int8_weight_quantize():
    from paddle.nn.quant import weight_quantize

    x = T(randn(128, 32, seed=12)).astype("float16")
    res = list(weight_quantize(x, algo="llm.int8", arch=80))
    res += list(weight_quantize(x, algo="llm.int8", arch=80, group_size=64))
    # weight-only int8/int4: Paddle interleaves the integers for CUTLASS; the scales compare
    for algo, gs in (
        ("weight_only_int8", -1),
        ("weight_only_int8", 64),
        ("weight_only_int4", -1),
        ("weight_only_int4", 128),
    ):
        res.append(weight_quantize(x, algo=algo, arch=80, group_size=gs)[1])
    return res


def case_weight_quantize_shapes():
    from paddle.nn.quant import weight_quantize

    x = T(randn(128, 32, seed=13)).astype("float16")
    res = []
    for algo in ("weight_only_int8", "weight_only_int4", "llm.int8"):
        for gs in (-1, 64, 128):
            out, scale = weight_quantize(x, algo=algo, arch=80, group_size=gs)
            res.append([algo, gs, out.dtype, list(out.shape), scale.dtype, list(scale.shape)])
    res.append(
        expect_error(lambda: weight_quantize(x, algo="weight_only_int8", arch=80, group_size=32))
    )
    return res


def case_functional_layers():
    import paddle.nn.quant as Q

    a, b = T(randn(2, 3, seed=14)), T(randn(2, 3, seed=15))
    return [
        repr(Q.add()),
        repr(Q.Stub()),
        Q.add()(a, b),
        Q.subtract()(a, b),
        Q.multiply()(a, b),
        Q.divide()(a, b),
        Q.reshape()(a, [3, 2]),
        Q.transpose()(a, [1, 0]),
        Q.concat()([a, b], axis=1),
        Q.flatten()(a),
        Q.matmul()(a, b, transpose_y=True),
    ]
