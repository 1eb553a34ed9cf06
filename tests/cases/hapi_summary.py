"""paddle.summary and paddle.flops: the printed tables character for character, the returned
totals (and their numpy types), input forms, errors, and what they leave on the network.

Layer numbers (``Conv2D-3``, ``conv2d_2``) come from process-wide name counters, so each case
renames its layers as a fresh process would (``_fresh``). Real Paddle 3.3.1's flops fails
with numpy >= 2.4 (``int()`` of a shape-[1] Tensor), so these goldens are recorded with numpy
2.3 in front of the side venv (``pip install --target /tmp/np23 'numpy==2.3.*'``):

    cd / && PYTHONPATH=/tmp/np23 /work/paddle-venv/bin/python \\
        /work/main/tools/record_goldens.py hapi_summary
"""

import contextlib
import io
import warnings

import numpy as np
import paddle.nn as nn

import paddle


def _fresh(net):
    """Name ``net``'s layers as in a fresh process (``conv2d_0``, ``conv2d_1``, ... in
    traversal order): both frameworks number layers from process-wide counters, and both
    read the number back from ``_full_name``."""
    counts: dict[str, int] = {}
    for m in net.sublayers(include_self=True) if isinstance(net, nn.Layer) else ():
        prefix = m._full_name.rsplit("_", 1)[0]
        m._full_name = f"{prefix}_{counts.setdefault(prefix, 0)}"
        counts[prefix] += 1
    return net


def _printed(fn):
    """[what ``fn`` returned, what it printed]."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        out = fn()
    return [out, buf.getvalue()]


def _error(fn):
    """The exception's type and message (or the result)."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            out = fn()
    except Exception as e:  # noqa: BLE001 - we record whatever Paddle raises
        return {"error": type(e).__name__, "message": str(e)}
    return {"no_error": out}


class LeNet(nn.Layer):
    def __init__(self, num_classes=10):
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
        )
        if num_classes > 0:
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10))

    def forward(self, inputs, y=None):
        x = self.features(inputs)
        if self.num_classes > 0:
            x = paddle.flatten(x, 1)
            x = self.fc(x if y is None else x + y)
        return x


class ListIn(LeNet):
    def forward(self, inputs):
        if isinstance(inputs, dict):
            return super().forward(inputs["x1"], inputs["x2"])
        return super().forward(inputs[0], inputs[1])


class ConvBlock(nn.Layer):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2D(cin, cout, 3, padding=1, bias_attr=False)
        self.bn = nn.BatchNorm2D(cout)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Nested(nn.Layer):
    def __init__(self):
        super().__init__()
        self.blocks = nn.LayerList([ConvBlock(3, 4), ConvBlock(4, 8)])
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.5), nn.Linear(8, 5))

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(self.pool(x))


class TwoOut(nn.Layer):
    """Returns a tuple; ``ragged`` makes the two output shapes of different ranks."""

    def __init__(self, ragged=False):
        super().__init__()
        self.ragged = ragged
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = self.fc(x)
        return (y, y.reshape([1, 2, 2])) if self.ragged else (y, y * 2)


class Wrap(nn.Layer):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, *xs):
        return self.inner(*xs)


class Scalar(nn.Layer):
    def __init__(self):
        super().__init__()
        self.scale = self.create_parameter([], dtype="float32")

    def forward(self, x):
        return x * self.scale


class Add3(nn.Layer):
    def forward(self, a, b, c):
        return a + b + c


class VeryLongCustomLayerName(nn.Layer):
    def forward(self, x):
        return x


def _summary(net, *args, **kw):
    return _printed(lambda: paddle.summary(_fresh(net), *args, **kw))


def case_summary_lenet():
    return _summary(LeNet(), (1, 1, 28, 28))


def case_summary_multi_input():
    out = _summary(LeNet(), [(1, 1, 28, 28), (1, 400)], dtypes=["float32", "float32"])
    return out + _summary(LeNet(), [(1, 1, 28, 28), (1, 400)], dtypes="float32")


def case_summary_input_tensors():
    x = paddle.to_tensor(np.ones((2, 1, 28, 28), "float32"))
    y = paddle.to_tensor(np.ones((2, 400), "float32"))
    out = {"tensor": _summary(LeNet(), input=x), "list": _summary(ListIn(), input=[x, y])}
    out["dict"] = _summary(ListIn(), input={"x1": x, "x2": y})
    out["input_wins"] = _summary(LeNet(), (3, 1, 28, 28), input=x)
    return out


def case_summary_unknown_batch():
    return {
        "none": _summary(LeNet(), (None, 1, 28, 28)),
        "minus_one": _summary(LeNet(), [(-1, 1, 28, 28), (-1, 400)]),
        "spec": _summary(nn.Linear(400, 3), paddle.static.InputSpec([None, 400])),
        "spec_list": _summary(Wrap(nn.Linear(8, 3)), [paddle.static.InputSpec([-1, 8])]),
        "int": _summary(nn.Linear(8, 3), 8),
        "int_list": _summary(Add3(), [5, 5, 5]),
    }


def case_summary_dtypes():
    emb = nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 2))
    return {
        "int64": _summary(emb, (2, 3), dtypes="int64"),
        "list": _summary(emb, [(1, 3)], ["int64"]),
    }


def case_summary_nested():
    return _summary(Nested(), (2, 3, 8, 8))


def case_summary_trainable_flags():
    net = nn.Sequential(
        nn.Linear(4, 8, weight_attr=paddle.ParamAttr(trainable=False)),
        nn.Linear(8, 8),
        nn.Linear(8, 2, bias_attr=False),
        nn.BatchNorm1D(2),
    )
    net[1].weight.stop_gradient = True
    net[3].bias.stop_gradient = True
    return _summary(net, (3, 4))


def case_summary_shared_and_leaf():
    fc = nn.Linear(4, 4)
    return {
        "shared": _summary(nn.Sequential(fc, nn.ReLU(), fc), (1, 4)),
        "leaf": _summary(nn.Linear(4, 2), (1, 4)),
        "leaf_no_params": _summary(nn.ReLU(), (2, 3)),
        "scalar_param": _summary(Scalar(), (2, 2)),
        "long_name": _summary(Wrap(VeryLongCustomLayerName()), (1, 2)),
    }


def case_summary_outputs():
    return {
        "tuple": _summary(Wrap(TwoOut()), (1, 4)),
        "ragged": _summary(Wrap(TwoOut(ragged=True)), (1, 4)),
        "wide_input": _summary(Wrap(Add3()), [(1, 2, 3, 4, 5)] * 3),
        "big_input": _summary(
            nn.Sequential(nn.AdaptiveAvgPool2D(1), nn.Flatten(), nn.Linear(3, 2)), (4, 3, 64, 64)
        ),
    }


def case_summary_training_mode():
    net = LeNet()
    net.fc[1].eval()
    _summary(net, (1, 1, 28, 28))
    out = [net.training, net.fc[1].training]
    net.eval()
    net.features[0].train()
    _summary(net, (1, 1, 28, 28))
    out += [net.training, net.features[0].training, net.fc[0].training]
    out.append(sum(len(m._forward_post_hooks) for m in net.sublayers(include_self=True)))
    return out


def case_summary_errors():
    net = nn.Linear(4, 2)
    bad = {
        "no_size": {},
        "two_unknown": {"input_size": (None, -1, 4)},
        "zero": {"input_size": (0, 4)},
        "negative": {"input_size": [(1, 4), (2, -3)]},
        "list_item": {"input_size": [(1, 4), "x"]},
        "list_item_list": {"input_size": [[1, 4]]},
        "numpy_input": {"input": np.zeros((1, 4), "float32")},
    }
    return {k: _error(lambda kw=kw: paddle.summary(net, **kw)) for k, kw in bad.items()}


def _flops(net, size, **kw):
    return _printed(lambda: paddle.flops(_fresh(net), size, **kw))


def _count_leaky_relu(m, x, y):
    m.total_ops += int(x[0].numel())


def case_flops_lenet():
    net = LeNet()
    custom = {nn.LeakyReLU: _count_leaky_relu}
    return {
        "detail": _flops(net, [1, 1, 28, 28], custom_ops=custom, print_detail=True),
        "brief": _flops(net, [1, 1, 28, 28]),
        "state": list(net.state_dict().keys()),
        "training": net.training,
    }


class Mixed(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(4, 8, 3, padding=1, groups=2, bias_attr=False)
        self.bn = nn.BatchNorm2D(8)
        self.act = nn.ReLU6()
        self.leaky = nn.LeakyReLU()
        self.pool = nn.AvgPool2D(2)
        self.up = nn.Upsample(scale_factor=2)
        self.deconv = nn.Conv2DTranspose(8, 4, 2, stride=2)
        self.adapt = nn.AdaptiveAvgPool2D(3)
        self.drop = nn.Dropout(0.1)
        self.flat = nn.Flatten()
        self.sig = nn.Sigmoid()
        self.fc = nn.Linear(4 * 9, 5, bias_attr=False)
        self.unused = nn.Linear(2, 2)

    def forward(self, x):
        x = self.pool(self.leaky(self.act(self.bn(self.conv(x)))))
        x = self.adapt(self.deconv(self.up(x)))
        return self.sig(self.fc(self.flat(self.drop(x))))


class Seq1D(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1D(2, 4, 3)
        self.bn = nn.BatchNorm1D(4)
        self.pool = nn.AvgPool1D(2)
        self.adapt = nn.AdaptiveAvgPool1D(2)
        self.conv3 = nn.Conv3D(1, 2, 2)
        self.adapt3 = nn.AdaptiveAvgPool3D(1)

    def forward(self, x):
        y = self.adapt(self.pool(self.bn(self.conv(x))))
        z = self.adapt3(self.conv3(x.reshape([1, 1, 2, 3, 5])))
        return y.sum() + z.sum()


def case_flops_layer_table():
    net = Mixed()
    out = {"detail": _flops(net, [1, 4, 8, 8], print_detail=True)}
    out["state"] = list(net.state_dict().keys())
    out["seq1d"] = _flops(Seq1D(), [1, 2, 15], print_detail=True)
    return out


class MyConv(nn.Conv2D):
    pass


def case_flops_custom_ops():
    def conv_fn(m, x, y):
        m.total_ops += 7

    def mine_fn(m, x, y):
        m.total_ops += int(y.numel()) * 3

    net = nn.Sequential(nn.Conv2D(1, 2, 3), MyConv(2, 2, 3), nn.ReLU(), MyConv(2, 1, 1))
    return {
        "custom": _flops(net, [1, 1, 9, 9], custom_ops={nn.Conv2D: conv_fn, MyConv: mine_fn}),
        "default": _flops(net, [1, 1, 9, 9], print_detail=True),
    }


def case_flops_edges():
    leaf = nn.Linear(4, 3)
    out = {"leaf": _flops(leaf, [2, 4], print_detail=True)}
    out["leaf_state"] = list(leaf.state_dict().keys())
    out["tuple_out"] = _flops(Wrap(TwoOut()), [1, 4], print_detail=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out["not_a_layer"] = _flops("net", [1, 4])
    out["warnings"] = [str(w.message) for w in caught]
    net = LeNet()
    net.eval()
    out["eval_kept"] = [_flops(net, [1, 1, 28, 28])[0], net.training]
    return out
