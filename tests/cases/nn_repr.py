"""``print(layer)`` for every layer class of ``paddle.nn``, with default and non-default
arguments and nested in containers; then the rest of the ``paddle.nn`` namespace (``nn.init``,
``paddle.LazyGuard``, ``nn.attention``, the torch-style aliases) and in-place ``silu``. TABLE is one entry per constructor call: the class name,
its positional arguments and its keyword arguments; each case prints one chunk of it as
``{"Class(args)": repr}`` so a mismatch names the layer."""

import warnings
from collections import OrderedDict

import numpy as np
from _util import expect_error

import paddle

nn = paddle.nn

ACTIVATION = [
    ("CELU", (), {}),
    ("CELU", (0.2,), {"name": "c"}),
    ("ELU", (), {}),
    ("ELU", (0.5,), {}),
    ("GELU", (), {}),
    ("GELU", (True,), {}),
    ("GLU", (), {}),
    ("GLU", (), {"axis": 1}),
    ("Hardshrink", (), {}),
    ("Hardshrink", (0.3,), {}),
    ("Hardsigmoid", (), {}),
    ("Hardswish", (), {}),
    ("Hardtanh", (), {}),
    ("Hardtanh", (-2.0, 2.0), {}),
    ("LeakyReLU", (), {}),
    ("LeakyReLU", (0.1,), {}),
    ("LogSigmoid", (), {}),
    ("LogSoftmax", (), {}),
    ("LogSoftmax", (0,), {}),
    ("Maxout", (2,), {}),
    ("Maxout", (2,), {"axis": 2}),
    ("Mish", (), {}),
    ("PReLU", (), {}),
    ("PReLU", (3, 0.1), {"data_format": "NHWC"}),
    ("RReLU", (), {}),
    ("RReLU", (0.1, 0.2), {}),
    ("ReLU", (), {}),
    ("ReLU", (), {"name": "r"}),
    ("ReLU6", (), {}),
    ("SELU", (), {}),
    ("SELU", (1.5, 2.0), {}),
    ("Silu", (), {}),
    ("SiLU", (), {}),
    ("Sigmoid", (), {}),
    ("Softmax", (), {}),
    ("Softmax", (0,), {}),
    ("Softmax2D", (), {}),
    ("Softplus", (), {}),
    ("Softplus", (2.0, 10.0), {}),
    ("Softshrink", (), {}),
    ("Softshrink", (0.2,), {}),
    ("Softsign", (), {}),
    ("Swish", (), {}),
    ("Tanh", (), {}),
    ("Tanhshrink", (), {}),
    ("ThresholdedReLU", (), {}),
    ("ThresholdedReLU", (0.5, 0.1), {}),
]

NORM = [
    ("BatchNorm", (4,), {}),
    ("BatchNorm", (4,), {"act": "relu", "momentum": 0.8, "epsilon": 1e-3}),
    ("BatchNorm1D", (4,), {}),
    ("BatchNorm1D", (4,), {"momentum": 0.8, "epsilon": 1e-3, "data_format": "NLC"}),
    ("BatchNorm2D", (4,), {}),
    ("BatchNorm2D", (4,), {"weight_attr": False, "bias_attr": False, "data_format": "NHWC"}),
    ("BatchNorm3D", (4,), {}),
    ("BatchNorm3D", (4,), {"use_global_stats": True}),
    ("SyncBatchNorm", (4,), {}),
    ("SyncBatchNorm", (4,), {"momentum": 0.8, "epsilon": 1e-3}),
    ("GroupNorm", (2, 4), {}),
    ("GroupNorm", (1, 4), {"epsilon": 1e-3, "data_format": "NHWC"}),
    ("InstanceNorm1D", (4,), {}),
    ("InstanceNorm2D", (4,), {"epsilon": 1e-3, "momentum": 0.8}),
    ("InstanceNorm3D", (4,), {"weight_attr": False, "bias_attr": False}),
    ("LayerNorm", (4,), {}),
    ("LayerNorm", ([2, 3],), {"epsilon": 1e-3, "bias_attr": False}),
    ("LocalResponseNorm", (3,), {}),
    ("LocalResponseNorm", (5, 1e-3, 0.5, 2.0), {"data_format": "NHWC"}),
    ("SpectralNorm", ([2, 3],), {}),
    ("SpectralNorm", ([2, 3, 4],), {"dim": 1, "power_iters": 2, "eps": 1e-6}),
]

POOLING = [
    ("AdaptiveAvgPool1D", (3,), {}),
    ("AdaptiveAvgPool2D", (3,), {}),
    ("AdaptiveAvgPool2D", ([2, 3],), {"data_format": "NHWC"}),
    ("AdaptiveAvgPool3D", (3,), {}),
    ("AdaptiveMaxPool1D", (3,), {}),
    ("AdaptiveMaxPool1D", (3,), {"return_mask": True}),
    ("AdaptiveMaxPool2D", (3,), {}),
    ("AdaptiveMaxPool3D", ([1, 2, 3],), {"return_mask": True}),
    ("AvgPool1D", (2,), {}),
    ("AvgPool1D", (3, 2, 1), {"exclusive": False, "ceil_mode": True}),
    ("AvgPool2D", (2,), {}),
    ("AvgPool2D", (3, 2, 1), {"ceil_mode": True, "divisor_override": 2}),
    ("AvgPool3D", (2,), {}),
    ("AvgPool3D", (3,), {"stride": 1, "padding": "SAME", "data_format": "NDHWC"}),
    ("MaxPool1D", (2,), {}),
    ("MaxPool1D", (3, 2, 1), {"return_mask": True, "ceil_mode": True}),
    ("MaxPool2D", (2,), {}),
    ("MaxPool2D", (3, 2, 1), {"data_format": "NHWC"}),
    ("MaxPool3D", (2,), {}),
    ("MaxPool3D", ([1, 2, 3],), {"return_mask": True}),
    ("MaxUnPool1D", (2,), {}),
    ("MaxUnPool1D", (3, 2, 1), {"output_size": [7]}),
    ("MaxUnPool2D", (2,), {}),
    ("MaxUnPool3D", (2,), {}),
    ("LPPool1D", (2, 3), {}),
    ("LPPool1D", (1.5, 3, 2), {"ceil_mode": True}),
    ("LPPool2D", (2, 3), {}),
    ("LPPool2D", (2, [2, 3], 1), {"data_format": "NHWC"}),
    ("FractionalMaxPool2D", (3,), {}),
    ("FractionalMaxPool2D", ([3, 3],), {"kernel_size": 2, "return_mask": True}),
    ("FractionalMaxPool3D", (3,), {}),
]

PADDING = [
    ("Pad1D", (1,), {}),
    ("Pad1D", ([1, 2],), {"mode": "reflect"}),
    ("Pad2D", (1,), {}),
    ("Pad2D", ([1, 1, 2, 2],), {"mode": "replicate", "value": 0.5, "data_format": "NHWC"}),
    ("Pad3D", (1,), {}),
    ("Pad3D", (1,), {"mode": "circular"}),
    ("ZeroPad1D", (1,), {}),
    ("ZeroPad2D", (1,), {}),
    ("ZeroPad2D", ([1, 2, 3, 4],), {"data_format": "NHWC"}),
    ("ZeroPad3D", (1,), {}),
    ("ConstantPad1D", (1, 0.5), {}),
    ("ConstantPad2D", (1, 0.5), {}),
    ("ConstantPad3D", (1, 0.5), {}),
    ("ReflectionPad1D", (1,), {}),
    ("ReflectionPad2D", (1,), {}),
    ("ReflectionPad3D", (1,), {}),
    ("ReplicationPad1D", (1,), {}),
    ("ReplicationPad2D", (1,), {}),
    ("ReplicationPad3D", (1,), {}),
    ("CircularPad1D", (1,), {}),
    ("CircularPad2D", (1,), {}),
    ("CircularPad3D", (1,), {}),
]

DROPOUT = [
    ("Dropout", (), {}),
    ("Dropout", (0.3,), {"axis": 1, "mode": "downscale_in_infer"}),
    ("Dropout2D", (), {}),
    ("Dropout2D", (0.3,), {"data_format": "NHWC"}),
    ("Dropout3D", (), {}),
    ("AlphaDropout", (), {}),
    ("AlphaDropout", (0.2,), {}),
    ("FeatureAlphaDropout", (), {}),
    ("FeatureAlphaDropout", (0.2,), {}),
]

COMMON = [
    ("Identity", (), {}),
    ("Linear", (3, 4), {}),
    ("Linear", (3, 4), {"bias_attr": False, "name": "fc"}),
    ("Bilinear", (2, 3, 4), {}),
    ("Bilinear", (2, 3, 4), {"bias_attr": False}),
    ("Embedding", (10, 3), {}),
    ("Embedding", (10, 3), {"padding_idx": 0, "sparse": True}),
    ("Embedding", (10, 3), {"max_norm": 1.0, "norm_type": 1.0, "scale_grad_by_freq": True}),
    ("Flatten", (), {}),
    ("Flatten", (0, -1), {}),
    ("Unflatten", (1, [2, 3]), {}),
    ("Upsample", (), {"scale_factor": 2}),
    ("Upsample", ([4, 4],), {"mode": "bilinear", "align_corners": True}),
    ("Upsample", (), {"scale_factor": [2, 3], "mode": "bicubic", "align_mode": 1}),
    ("UpsamplingNearest2D", (), {"scale_factor": 2}),
    ("UpsamplingNearest2D", ([4, 4],), {}),
    ("UpsamplingBilinear2D", (), {"scale_factor": 2}),
    ("UpsamplingBilinear2D", ([4, 4],), {"data_format": "NHWC"}),
    ("PixelShuffle", (2,), {}),
    ("PixelShuffle", (2, "NHWC"), {}),
    ("PixelUnshuffle", (2,), {}),
    ("PixelUnshuffle", (2, "NHWC"), {}),
    ("ChannelShuffle", (2,), {}),
    ("ChannelShuffle", (2, "NHWC"), {}),
    ("Fold", ([4, 4], [2, 2]), {}),
    ("Fold", ([4, 5], 2), {"strides": 2, "paddings": 1, "dilations": 1}),
    ("Unfold", ([2, 2],), {}),
    ("Unfold", (2,), {"dilations": 2, "paddings": 1, "strides": [1, 2]}),
    ("CosineSimilarity", (), {}),
    ("CosineSimilarity", (0, 1e-6), {}),
    ("PairwiseDistance", (), {}),
    ("PairwiseDistance", (1.0, 1e-5, True), {}),
]

LOSS = [
    ("BCELoss", (), {}),
    ("BCELoss", (), {"reduction": "sum"}),
    ("BCEWithLogitsLoss", (), {}),
    ("CTCLoss", (), {}),
    ("CTCLoss", (1, "sum"), {}),
    ("CosineEmbeddingLoss", (), {}),
    ("CosineEmbeddingLoss", (0.5, "sum"), {}),
    ("CrossEntropyLoss", (), {}),
    ("CrossEntropyLoss", (), {"ignore_index": 1, "soft_label": True, "axis": 1}),
    ("GaussianNLLLoss", (), {}),
    ("GaussianNLLLoss", (True, 1e-4, "sum"), {}),
    ("HSigmoidLoss", (3, 5), {}),
    ("HingeEmbeddingLoss", (), {}),
    ("HingeEmbeddingLoss", (2.0, "sum"), {}),
    ("KLDivLoss", (), {}),
    ("KLDivLoss", ("batchmean", True), {}),
    ("L1Loss", (), {}),
    ("L1Loss", ("sum",), {}),
    ("MSELoss", (), {}),
    ("MSELoss", ("none",), {}),
    ("MarginRankingLoss", (), {}),
    ("MarginRankingLoss", (0.5,), {}),
    ("MultiLabelMarginLoss", (), {}),
    ("MultiLabelSoftMarginLoss", (), {}),
    ("MultiMarginLoss", (), {}),
    ("MultiMarginLoss", (2, 0.5), {}),
    ("NLLLoss", (), {}),
    ("NLLLoss", (), {"ignore_index": 1, "reduction": "sum"}),
    ("PoissonNLLLoss", (), {}),
    ("PoissonNLLLoss", (False, True), {}),
    ("RNNTLoss", (), {}),
    ("SmoothL1Loss", (), {}),
    ("SmoothL1Loss", ("sum", 0.5), {}),
    ("SoftMarginLoss", (), {}),
    ("TripletMarginLoss", (), {}),
    ("TripletMarginLoss", (2.0, 1.0), {"swap": True}),
    ("TripletMarginWithDistanceLoss", (), {}),
    ("TripletMarginWithDistanceLoss", (), {"margin": 2.0, "swap": True}),
    ("AdaptiveLogSoftmaxWithLoss", (8, 10, [4]), {}),
    ("AdaptiveLogSoftmaxWithLoss", (8, 10, [4, 7]), {"div_value": 2.0, "head_bias": True}),
]

CONV = [
    ("Conv1D", (2, 3, 3), {}),
    (
        "Conv1D",
        (2, 4, 3),
        {
            "stride": 2,
            "padding": 1,
            "groups": 2,
            "padding_mode": "reflect",
            "bias_attr": False,
            "data_format": "NLC",
        },
    ),
    ("Conv2D", (2, 3, 3), {}),
    (
        "Conv2D",
        (2, 4, [3, 2]),
        {"stride": 2, "padding": "SAME", "dilation": 2, "groups": 2, "data_format": "NHWC"},
    ),
    ("Conv3D", (2, 3, 3), {}),
    ("Conv3D", (2, 3, 3), {"padding": 1, "padding_mode": "circular"}),
    ("Conv1DTranspose", (2, 3, 3), {}),
    ("Conv1DTranspose", (2, 4, 3), {"stride": 2, "output_padding": 1, "groups": 2}),
    ("Conv2DTranspose", (2, 3, 3), {}),
    (
        "Conv2DTranspose",
        (2, 3, 3),
        {"stride": 2, "padding": 1, "dilation": 2, "data_format": "NHWC"},
    ),
    ("Conv3DTranspose", (2, 3, 3), {}),
    ("Conv3DTranspose", (2, 3, 3), {"bias_attr": False}),
]
RNN = [
    ("SimpleRNNCell", (3, 4), {}),
    ("SimpleRNNCell", (3, 4), {"activation": "relu"}),
    ("LSTMCell", (3, 4), {}),
    ("LSTMCell", (3, 4), {"proj_size": 2}),
    ("GRUCell", (3, 4), {}),
    ("SimpleRNN", (3, 4), {}),
    (
        "SimpleRNN",
        (3, 4, 2),
        {"direction": "bidirect", "time_major": True, "dropout": 0.1, "activation": "relu"},
    ),
    ("LSTM", (3, 4), {}),
    ("LSTM", (3, 4, 2), {"direction": "bidirect", "proj_size": 2}),
    ("GRU", (3, 4), {}),
    ("GRU", (3, 4, 2), {"direction": "bidirectional", "dropout": 0.1}),
]
TRANSFORMER = [
    ("MultiHeadAttention", (8, 2), {}),
    ("MultiHeadAttention", (8, 2), {"dropout": 0.1, "kdim": 4, "vdim": 6, "need_weights": True}),
    ("TransformerEncoderLayer", (8, 2, 16), {}),
    (
        "TransformerEncoderLayer",
        (8, 2, 16),
        {"dropout": 0.2, "activation": "gelu", "normalize_before": True},
    ),
    ("TransformerDecoderLayer", (8, 2, 16), {}),
    ("Transformer", (8, 2, 1, 1, 16), {}),
]


# more argument forms: ints for floats, tuples for lists, names, None sizes
EXTRA = [
    ("ELU", (1,), {}),
    ("CELU", (1,), {}),
    ("LeakyReLU", (0,), {}),
    ("Hardtanh", (-1, 1), {}),
    ("Softplus", (1, 20), {}),
    ("ThresholdedReLU", (1,), {}),
    ("Hardshrink", (1,), {}),
    ("Softshrink", (1,), {}),
    ("RReLU", (0.1, 0.3), {"name": ""}),
    ("Dropout", (0,), {}),
    ("Dropout", (1,), {}),
    ("Dropout", (0.5,), {"axis": [0, 1]}),
    ("AlphaDropout", (0,), {}),
    ("LayerNorm", ((2, 3),), {}),
    ("LayerNorm", (4,), {"weight_attr": False}),
    ("GroupNorm", (2, 4), {"weight_attr": False}),
    ("MaxPool2D", ((2, 3),), {"stride": (1, 2), "padding": (0, 1)}),
    ("AvgPool2D", ([2, 2],), {"exclusive": False}),
    ("Upsample", (), {"scale_factor": 2.0, "mode": "nearest", "data_format": "NHWC"}),
    ("Upsample", (4,), {"mode": "linear", "data_format": "NCW"}),
    ("Upsample", ([2, 2, 2],), {"mode": "trilinear", "data_format": "NCDHW"}),
    ("Flatten", (1, 2), {}),
    ("Unflatten", (0, (2, 3)), {}),
    ("Bilinear", (2, 3, 4), {"name": "b"}),
    ("Pad2D", ((1, 2, 3, 4),), {}),
    ("Pad1D", (1,), {"value": 1}),
    (
        "CrossEntropyLoss",
        (),
        {"weight": None, "reduction": "sum", "use_softmax": False, "label_smoothing": 0.1},
    ),
    ("PReLU", (1, 0.25), {"weight_attr": None}),
    ("Softmax2D", (), {"name": "s"}),
    ("Maxout", (3, 1), {}),
    ("GLU", (-1,), {}),
    ("LogSoftmax", (-1,), {"name": "ls"}),
    ("Identity", (1, 2), {"k": 3}),
    ("MarginRankingLoss", (0.0, "sum"), {}),
    ("KLDivLoss", ("sum",), {}),
    ("HuberLoss", ("sum", 2.0), {}),
    ("PairwiseDistance", (), {"name": "pd"}),
    ("CosineSimilarity", (), {"axis": -1}),
    ("LocalResponseNorm", (3,), {"name": "l"}),
    ("SpectralNorm", ([2, 3],), {"dtype": "float64"}),
    ("Embedding", (4, 2), {"padding_idx": -1, "name": "e"}),
    ("InstanceNorm1D", (3,), {"name": "i", "data_format": "NCL"}),
    ("FractionalMaxPool2D", (3,), {"random_u": 0.3}),
    ("MaxUnPool2D", (2, 2, 0), {"data_format": "NCHW", "output_size": [4, 4], "name": "u"}),
    ("ChannelShuffle", (2,), {"name": "c"}),
    ("PixelShuffle", (2,), {"name": "p"}),
    ("Fold", ([4, 4], [2, 2]), {"name": "f"}),
    ("Unfold", ([2, 2],), {"name": "u"}),
    ("AdaptiveAvgPool2D", (None,), {}),
    ("AdaptiveAvgPool2D", ([None, 3],), {}),
    ("AdaptiveMaxPool2D", ([2, None],), {"name": "a"}),
    ("LPPool2D", (2.0, 2), {"name": "lp"}),
    ("ZeroPad2D", (1,), {"name": "z"}),
    ("CircularPad2D", ([1, 1, 2, 2],), {}),
    ("BatchNorm1D", (3,), {"name": "nr_x_bn", "use_global_stats": False}),
    ("SyncBatchNorm", (3,), {"data_format": "NHWC", "name": "nr_x_sbn"}),
    ("BatchNorm", (3,), {"is_test": True, "data_layout": "NHWC", "in_place": True}),
]


def _label(name, args, kwargs):
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{name}({', '.join(parts)})"


def _reprs(table):
    return {_label(n, a, k): repr(getattr(nn, n)(*a, **k)) for n, a, k in table}


def case_activation():
    return _reprs(ACTIVATION)


def case_norm():
    return _reprs(NORM)


def case_pooling():
    return _reprs(POOLING)


def case_padding():
    return _reprs(PADDING)


def case_dropout():
    return _reprs(DROPOUT)


def case_common():
    return _reprs(COMMON)


def case_loss():
    return _reprs(LOSS)


def case_conv():
    return _reprs(CONV)


def case_rnn():
    out = _reprs(RNN)
    out["RNN(SimpleRNNCell)"] = repr(nn.RNN(nn.SimpleRNNCell(3, 4)))
    out["RNN(GRUCell, reverse)"] = repr(nn.RNN(nn.GRUCell(3, 4), is_reverse=True, time_major=True))
    out["BiRNN"] = repr(nn.BiRNN(nn.LSTMCell(3, 4), nn.LSTMCell(3, 4)))
    return out


def case_transformer():
    out = _reprs(TRANSFORMER)
    enc = nn.TransformerEncoderLayer(8, 2, 16)
    out["TransformerEncoder"] = repr(nn.TransformerEncoder(enc, 2, norm=nn.LayerNorm(8)))
    dec = nn.TransformerDecoderLayer(8, 2, 16)
    out["TransformerDecoder"] = repr(nn.TransformerDecoder(dec, 1))
    return out


def case_containers():
    out = _nested()
    out["ParameterDict"] = repr(nn.ParameterDict({"a": paddle.create_parameter([2], "float32")}))
    return out


def case_more_arguments():
    return _reprs(EXTRA)


def case_named():
    """Every table entry again with ``name=`` (unique: a named BatchNorm names its statistics
    ``<name>_mean``, and a reused parameter name raises)."""
    import inspect

    out = {}
    tables = (ACTIVATION, NORM, POOLING, PADDING, DROPOUT, COMMON, LOSS, CONV, RNN, TRANSFORMER)
    for i, (n, a, k) in enumerate(e for t in tables for e in t):
        cls = getattr(nn, n)
        if "name" in inspect.signature(cls.__init__).parameters and "name" not in k:
            k = dict(k, name=f"nr{i}")
            out[_label(n, a, k)] = repr(cls(*a, **k))
    bn = nn.BatchNorm2D(2, name="nr_bn")
    out["BatchNorm2D stat names"] = [bn._mean.name, bn._variance.name]
    out["reused name"] = expect_error(lambda: nn.BatchNorm2D(2, name="nr_bn"))
    return out


def case_layer_base():
    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 2)

    class WithExtra(nn.Layer):
        def extra_repr(self):
            return "a=1,\nb=2"

    return {"Layer": repr(nn.Layer()), "Net": repr(Net()), "WithExtra": repr(WithExtra())}


def _nested():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Dropout(0.1))
    named = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 3)), ("act", nn.GELU())]))
    lst = nn.LayerList([nn.Linear(2, 2), nn.Sequential(nn.Tanh(), nn.Softmax(0))])
    dct = nn.LayerDict({"pool": nn.MaxPool2D(2), "norm": nn.LayerNorm(4)})
    plist = nn.ParameterList([paddle.create_parameter([2], "float32")])

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.BatchNorm2D(3), nn.ReLU6())
            self.heads = nn.LayerList([nn.Linear(3, 1)])
            self.extra = nn.LayerDict({"id": nn.Identity()})

    return {
        "Sequential": repr(seq),
        "Sequential(OrderedDict)": repr(named),
        "LayerList": repr(lst),
        "LayerDict": repr(dct),
        "ParameterList": repr(plist),
        "Net": repr(Net()),
        "empty Sequential": repr(nn.Sequential()),
        "empty LayerList": repr(nn.LayerList()),
    }


def case_convert_sync_batchnorm():
    model = nn.Sequential(
        nn.Conv2D(3, 5, 3),
        nn.BatchNorm2D(5, momentum=0.8, epsilon=1e-3, weight_attr=False),
        nn.Sequential(nn.BatchNorm1D(5), nn.BatchNorm(5)),
        nn.BatchNorm3D(5, bias_attr=paddle.ParamAttr(name="bn3_bias")),
    )
    model[1]._mean.set_value(paddle.ones([5]))
    bn = model[3]
    out = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    single = nn.BatchNorm2D(4)
    conv = nn.SyncBatchNorm.convert_sync_batchnorm(single)
    frozen = nn.SyncBatchNorm(2, weight_attr=False, bias_attr=False)
    return {
        "same container": out is model,
        "repr": repr(out),
        "keys": list(out.state_dict()),
        "mean": out[1]._mean.numpy(),
        "shares": [out[3].weight is bn.weight, out[3].bias is bn.bias, out[3]._mean is bn._mean],
        "bias name": out[3].bias.name,
        "single": [conv is single, type(conv).__name__, conv.weight is single.weight],
        "frozen": [[k, p.stop_gradient, p.numpy()] for k, p in frozen.named_parameters()],
    }


# -- paddle.nn namespace: init, LazyGuard, attention, aliases ---------------------------------
_INIT_CALLS = [
    ("uniform_", ()),
    ("uniform_", (-0.5, 0.5)),
    ("normal_", (0.5, 2.0)),
    ("trunc_normal_", ()),
    ("trunc_normal_", (0.0, 1.0, -0.5, 0.5)),
    ("xavier_uniform_", ()),
    ("xavier_normal_", (2.0,)),
    ("xavier_uniform_", (1.0, 4.0, 6.0)),
    ("kaiming_uniform_", ()),
    ("kaiming_normal_", (0.1, "fan_out", "relu")),
    ("kaiming_uniform_", (0.0, "fan_in", "tanh")),
    ("orthogonal_", ()),
    ("orthogonal_", (2.0,)),
    ("constant_", (3.0,)),
    ("ones_", ()),
    ("zeros_", ()),
    ("eye_", ()),
]


def case_init_functions():
    init = nn.init
    lin = nn.Linear(3, 4)
    out = {}
    for name, args in _INIT_CALLS:
        paddle.seed(7)
        before = lin.weight.inplace_version
        r = getattr(init, name)(lin.weight, *args)
        after = lin.weight.inplace_version
        out[_label(name, args, {})] = [r is None, after - before, lin.weight.numpy()]
    paddle.seed(7)
    t = paddle.zeros([2, 3])
    out["normal_(Tensor)"] = [init.normal_(t), t]
    conv = paddle.zeros([4, 2, 3])
    out["dirac_"] = [init.dirac_(conv), conv]
    conv = paddle.zeros([4, 2, 3, 3])
    out["dirac_(groups=2)"] = [init.dirac_(conv, 2), conv]
    i32 = paddle.zeros([2, 3], dtype="int32")
    init.constant_(i32, 2)
    out["constant_(int32)"] = i32
    out["errors"] = [
        expect_error(lambda: init.eye_(paddle.zeros([2, 2, 2]))),
        expect_error(lambda: init.uniform_(paddle.zeros([2], dtype="int32"))),
        expect_error(lambda: init.kaiming_normal_(paddle.zeros([2, 2]), mode="fan_avg")),
        expect_error(lambda: init.dirac_(paddle.zeros([2, 2]))),
        expect_error(lambda: init.orthogonal_(paddle.zeros([3]))),
    ]
    out["gain"] = [
        init.calculate_gain("tanh"),
        init.calculate_gain("leaky_relu"),
        init.calculate_gain("leaky_relu", 0.2),
        init.calculate_gain("relu"),
        init.calculate_gain("selu"),
    ]
    out["fans"] = [
        init._calculate_fan_in_and_fan_out(paddle.zeros(s)) for s in ([3], [3, 4], [4, 3, 2, 2])
    ]
    out["classes"] = [
        init.Constant is nn.initializer.Constant,
        init.KaimingNormal is nn.initializer.KaimingNormal,
    ]
    return out


def case_lazy_guard():
    paddle.seed(3)
    expected = paddle.rand([2])
    paddle.seed(3)
    with paddle.LazyGuard():
        lin = nn.Linear(3, 2)
        bn = nn.BatchNorm2D(2)
    after = paddle.rand([2])  # creating layers under the guard drew no random numbers
    state = [
        lin.weight._is_initialized(),
        lin.bias._is_initialized(),
        bn._mean._is_initialized(),
        list(lin.weight.shape),
        str(lin.weight.dtype),
        lin.weight.stop_gradient,
    ]
    paddle.seed(5)
    lin.weight.initialize()
    lin.bias.initialize()
    paddle.seed(5)
    eager = nn.Linear(3, 2)
    with paddle.LazyGuard():
        loaded = nn.Linear(2, 2)
    loaded.set_state_dict({"weight": paddle.ones([2, 2]), "bias": paddle.zeros([2])})
    w, b = loaded.weight, loaded.bias
    loaded_state = [w._is_initialized(), b._is_initialized(), w.numpy().copy()]
    paddle.seed(9)
    loaded.weight.initialize()  # the kept initializer still runs after a load (as Paddle)
    return {
        "rand unchanged": [expected, after],
        "state": state,
        "initialized": [lin.weight._is_initialized(), lin.weight, lin.bias],
        "same as eager": [lin.weight.numpy().tolist() == eager.weight.numpy().tolist()],
        "forward": lin(paddle.ones([1, 3])),
        "set_state_dict": loaded_state,
        "initialize after load": loaded.weight,
        "initialize twice": expect_error(lambda: lin.weight.initialize()),
    }


def case_namespace_aliases():
    from paddle.nn import attention, modules, parameter

    return [
        nn.Module is nn.Layer,
        nn.ModuleList is nn.LayerList,
        nn.ModuleDict is nn.LayerDict,
        modules.Module is nn.Layer,
        modules.container.ModuleList is nn.LayerList,
        modules.module.Module is nn.Layer,
        parameter.Parameter is parameter.EagerParamBase,
        nn.Parameter is parameter.Parameter,
        type(nn.Linear(2, 2).weight) is nn.Parameter,
        nn.loss.MSELoss is nn.MSELoss,
        nn.loss.CrossEntropyLoss is nn.CrossEntropyLoss,
        nn.spectral_norm is nn.utils.spectral_norm,
        sorted(attention.__all__),
        [int(b) for b in attention.SDPBackend],
        [b.name for b in attention.SDPBackend],
    ]


def case_sdpa_kernel():
    from paddle.nn.attention import SDPBackend, _cur_sdpa_kernel_backends, sdpa_kernel

    def names(backends):
        return [b.name for b in backends]

    out = [names(_cur_sdpa_kernel_backends()), names(_cur_sdpa_kernel_backends(True))]
    both = [SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]
    with sdpa_kernel(both, set_priority=True) as ctx:
        out.append(
            [ctx, names(_cur_sdpa_kernel_backends()), names(_cur_sdpa_kernel_backends(True))]
        )
        q = paddle.to_tensor(np.linspace(-1, 1, 16, dtype="float32").reshape(1, 2, 2, 4))
        out.append(paddle.nn.functional.scaled_dot_product_attention(q, q, q))
    out.append(names(_cur_sdpa_kernel_backends(True)))
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        out.append(names(_cur_sdpa_kernel_backends()))
    out.append(names(_cur_sdpa_kernel_backends()))
    for bad in [(SDPBackend.MATH,), [], [1]]:

        def enter(bad=bad):
            with sdpa_kernel(bad):
                pass

        out.append(expect_error(enter))
    return out


def case_silu_inplace():
    F = nn.functional
    x = paddle.to_tensor([-1.0, 0.0, 1.0, 2.0])
    v = x.inplace_version
    y = F.silu(x, inplace=True)
    out = [y is x, x, x.inplace_version - v]
    x = paddle.to_tensor([-1.0, 0.0, 1.0, 2.0])
    m = nn.Silu(inplace=True)
    y = m(x)
    out += [y is x, x, repr(m), repr(nn.Silu())]
    leaf = paddle.to_tensor([-1.0, 2.0], stop_gradient=False)
    out.append(expect_error(lambda: F.silu(leaf, inplace=True)))
    # (Paddle writes the result into the refused leaf before raising; we refuse first)
    leaf = paddle.to_tensor([-1.0, 2.0], stop_gradient=False)
    z = leaf * 1
    F.silu(z, inplace=True).sum().backward()
    out += [leaf.grad, z]
    x = paddle.to_tensor([-1.0, 0.0, 1.0, 2.0])
    out += [F.silu(x), x]
    return out


def case_set_state_dict_warnings():
    class M(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 2)
            self.register_buffer("nb", paddle.ones([1]), persistable=False)
            self.register_buffer("pb", paddle.ones([1]))

    m = M()
    out = []
    for sd in (
        {"fc.weight": paddle.ones([2, 2]), "nb": paddle.zeros([1]), "fc.zz": paddle.ones([1])},
        {"fc.weight": paddle.ones([3, 2]), "fc.bias": paddle.ones([2]), "pb": paddle.zeros([1])},
    ):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = m.set_state_dict(sd)
        out.append([r, [(x.category.__name__, str(x.message)) for x in w]])
    out.append([list(m.state_dict()), m.nb, m.pb, m.fc.bias])
    return out


def case_layer_extras():
    m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    m.register_buffer("nb", paddle.ones([1]), persistable=False)
    m.register_buffer("pb", paddle.ones([1]))
    log = []
    h1 = m.register_forward_pre_hook(lambda layer, inp: log.append("pre"))
    h2 = m.register_forward_post_hook(lambda layer, inp, out: log.append("post"))
    m(paddle.ones([1, 2]))
    removed = [h1.remove(), h2.remove(), h1.remove()]
    m(paddle.ones([1, 2]))
    return {
        "_modules": [m._modules is m._sub_layers, list(m._modules)],
        "_non_persistent_buffers_set": sorted(m._non_persistent_buffers_set),
        "state_dict": list(m.state_dict()),
        "buffers": [k for k, _ in m.named_buffers()],
        "persistable": [m.nb.persistable, m.pb.persistable],
        "hooks": [type(h1).__name__, h2._hook_id - h1._hook_id, removed, log],
        "errors": [
            expect_error(lambda: m.get_extra_state()),
            expect_error(lambda: m.xpu("x")),
            expect_error(lambda: m.register_buffer("a.b", paddle.ones([1]))),
            expect_error(lambda: m.register_buffer("", paddle.ones([1]))),
            expect_error(lambda: m.register_buffer(1, paddle.ones([1]))),
            expect_error(lambda: m.register_buffer("c", np.ones(1))),
        ],
    }


def case_legacy_initializers():
    I = nn.initializer  # noqa: E741
    inits = {
        "UniformInitializer": I.UniformInitializer(-1.0, 1.0, 0, 2, 4, 7.0),
        "NormalInitializer": I.NormalInitializer(0.5, 2.0),
        "TruncatedNormalInitializer": I.TruncatedNormalInitializer(0.0, 2.0),
        "ConstantInitializer": I.ConstantInitializer(1.5),
        "XavierInitializer(gain=2)": I.XavierInitializer(gain=2.0),
        "XavierInitializer(normal)": I.XavierInitializer(False, 3, 5),
        "MSRAInitializer(fan_out)": I.MSRAInitializer(False, mode="fan_out"),
        "KaimingUniform(fan_out)": I.KaimingUniform(mode="fan_out", nonlinearity="tanh"),
    }
    out = {}
    for name, init in inits.items():
        paddle.seed(2)
        out[name] = paddle.create_parameter([3, 3], "float32", default_initializer=init)
    out["bases"] = [
        isinstance(I.Constant(), I.ConstantInitializer),
        isinstance(I.Normal(), I.NormalInitializer),
        isinstance(I.TruncatedNormal(), I.TruncatedNormalInitializer),
        isinstance(I.Uniform(), I.UniformInitializer),
        isinstance(I.XavierNormal(), I.XavierInitializer),
        isinstance(I.XavierUniform(), I.XavierInitializer),
        isinstance(I.KaimingNormal(), I.MSRAInitializer),
        isinstance(I.KaimingUniform(), I.MSRAInitializer),
    ]
    out["errors"] = [
        expect_error(lambda: I.KaimingNormal(mode="fan_avg")),
        expect_error(lambda: I.KaimingUniform(fan_in=3, mode="fan_out")),
    ]
    return out
