"""paddle.nn layers vs real Paddle: printed form, state_dict keys/shapes/dtypes, and forward and
backward with parameters set from numpy (so both frameworks hold identical values).

Table rows: ``name -> (factory, inputs...)``; ``run_layer`` sets every parameter with
``set_value`` (running variances stay positive), runs forward in training mode (unless the
factory's layer was put in eval), backpropagates fixed random cotangents and returns the layer's
repr, state_dict summary, outputs, input gradients and parameter gradients."""

import numpy as np
import paddle.nn as nn
from _util import expect_error, randn, weighted_loss

import paddle

TOLERANCE = {}


def T(a, grad=False):
    return paddle.to_tensor(a, stop_gradient=not grad)


def _set_params(layer):
    for i, (name, p) in enumerate(layer.named_parameters()):
        v = randn(*p.shape, seed=200 + i).astype(str(p.dtype).replace("paddle.", ""))
        if name.endswith("_variance"):
            v = np.abs(v) + 0.5
        p.set_value(v)


def _summary(layer):
    return {
        "repr": str(layer),
        "state_dict": [
            [k, list(v.shape), str(v.dtype).replace("paddle.", ""), bool(v.stop_gradient)]
            for k, v in layer.state_dict().items()
        ],
    }


def run_layer(make, *arrays, grad=True, eval_mode=False, calls=1):
    layer = make()
    _set_params(layer)
    if eval_mode:
        layer.eval()
    ts = [
        paddle.to_tensor(a, stop_gradient=not (grad and np.asarray(a).dtype.kind == "f"))
        for a in arrays
    ]
    for _ in range(calls):
        out = layer(*ts)
    outs = list(out) if isinstance(out, tuple | list) else [out]
    res = {**_summary(layer), "out": outs}
    if grad:
        loss = weighted_loss(paddle, outs)
        if loss is not None:
            loss.backward()
        res["grads"] = [t.grad for t in ts if not t.stop_gradient]
        res["param_grads"] = {n: p.grad for n, p in layer.named_parameters()}
    if any(n.endswith("_mean") for n, _ in layer.named_parameters()):
        res["stats"] = {n: p for n, p in layer.named_parameters() if n in ("_mean", "_variance")}
    return res


def _register(table, prefix, **kw):
    for name, (make, *arrays) in table.items():

        def case(make=make, arrays=arrays):
            return run_layer(make, *arrays, **kw)

        globals()[f"case_{prefix}{name}"] = case


X = randn(3, 4, seed=1) * 2
XC = randn(1, 2, 5, 5, seed=2)
XL = randn(2, 2, 6, seed=3)

_register(
    {
        "linear": (lambda: nn.Linear(4, 3), X),
        "linear_nobias": (lambda: nn.Linear(4, 3, bias_attr=False), randn(2, 5, 4)),
        "bilinear": (lambda: nn.Bilinear(3, 4, 2), randn(2, 3), randn(2, 4, seed=5)),
        "embedding": (lambda: nn.Embedding(6, 3), np.array([[0, 5, 2], [2, 2, 1]])),
        "embedding_padding": (
            lambda: nn.Embedding(6, 3, padding_idx=2),
            np.array([[0, 5, 2], [2, 2, 1]]),
        ),
        "conv1d": (lambda: nn.Conv1D(2, 3, 3, padding=1), XL),
        "conv1d_circular": (lambda: nn.Conv1D(2, 3, 3, padding=1, padding_mode="circular"), XL),
        "conv2d": (lambda: nn.Conv2D(2, 3, 3), XC),
        "conv2d_args": (lambda: nn.Conv2D(2, 4, 3, stride=2, padding=1, groups=2), XC),
        "conv2d_reflect": (lambda: nn.Conv2D(2, 3, 3, padding=1, padding_mode="reflect"), XC),
        "conv2d_same_nhwc": (
            lambda: nn.Conv2D(5, 2, 2, padding="SAME", data_format="NHWC"),
            randn(1, 3, 3, 5),
        ),
        "conv2d_nobias": (lambda: nn.Conv2D(2, 3, [3, 2], bias_attr=False, dilation=[1, 2]), XC),
        "conv3d": (lambda: nn.Conv3D(1, 2, 2), randn(1, 1, 3, 3, 3)),
        "conv1d_transpose": (lambda: nn.Conv1DTranspose(2, 3, 3, stride=2), XL),
        "conv2d_transpose": (
            lambda: nn.Conv2DTranspose(2, 3, 3, stride=2, padding=1, output_padding=1),
            XC,
        ),
        "conv2d_transpose_groups": (lambda: nn.Conv2DTranspose(2, 4, 2, groups=2), XC),
        "conv3d_transpose": (lambda: nn.Conv3DTranspose(1, 2, 2, stride=2), randn(1, 1, 2, 2, 2)),
        "prelu": (lambda: nn.PReLU(), X),
        "prelu_channels": (lambda: nn.PReLU(2, 0.1), XC),
    },
    "param_",
)

_register(
    {
        "maxpool2d": (lambda: nn.MaxPool2D(2), XC),
        "maxpool2d_args": (lambda: nn.MaxPool2D(3, 2, 1, ceil_mode=True), XC),
        "maxpool2d_mask": (lambda: nn.MaxPool2D(2, 1, return_mask=True), XC),
        "avgpool2d": (lambda: nn.AvgPool2D(2), XC),
        "avgpool2d_args": (lambda: nn.AvgPool2D(3, 1, 1, exclusive=False), XC),
        "maxpool1d": (lambda: nn.MaxPool1D(2), XL),
        "avgpool1d": (lambda: nn.AvgPool1D(3, 2, 1), XL),
        "maxpool3d": (lambda: nn.MaxPool3D(2, 1), randn(1, 1, 3, 3, 3)),
        "avgpool3d": (lambda: nn.AvgPool3D(2), randn(1, 1, 4, 4, 4)),
        "adaptive_avg2d": (lambda: nn.AdaptiveAvgPool2D(3), XC),
        "adaptive_avg2d_none": (lambda: nn.AdaptiveAvgPool2D([2, None]), XC),
        "adaptive_max2d": (lambda: nn.AdaptiveMaxPool2D(2), XC),
        "adaptive_max2d_mask": (lambda: nn.AdaptiveMaxPool2D(2, return_mask=True), XC),
        "adaptive_avg1d": (lambda: nn.AdaptiveAvgPool1D(4), XL),
        "adaptive_max1d": (lambda: nn.AdaptiveMaxPool1D(4), XL),
        "adaptive_avg3d": (lambda: nn.AdaptiveAvgPool3D(2), randn(1, 1, 3, 3, 3)),
        "flatten": (lambda: nn.Flatten(), XC),
        "flatten_axes": (lambda: nn.Flatten(0, 2), XC),
        "identity": (lambda: nn.Identity(3, a=1), X),
        "pad2d": (lambda: nn.Pad2D(1), XC),
        "pad2d_reflect": (lambda: nn.Pad2D([1, 0, 2, 0], mode="reflect"), XC),
        "pad1d": (lambda: nn.Pad1D([1, 2], mode="replicate"), XL),
        "pad3d": (lambda: nn.Pad3D(1, value=0.5), randn(1, 1, 2, 2, 2)),
        "zeropad2d": (lambda: nn.ZeroPad2D([1, 0, 0, 2]), XC),
        "upsample": (lambda: nn.Upsample(scale_factor=2), XC),
        "upsample_bilinear": (
            lambda: nn.Upsample(size=[3, 4], mode="bilinear", align_corners=True),
            XC,
        ),
        "upsampling_nearest2d": (lambda: nn.UpsamplingNearest2D(scale_factor=2), XC),
        "upsampling_bilinear2d": (lambda: nn.UpsamplingBilinear2D(size=[4, 4]), XC),
        "pixel_shuffle": (lambda: nn.PixelShuffle(2), randn(1, 4, 2, 3)),
        "pixel_unshuffle": (lambda: nn.PixelUnshuffle(2), randn(1, 1, 4, 6)),
        "channel_shuffle": (lambda: nn.ChannelShuffle(2), randn(1, 4, 2, 2)),
        "unfold": (lambda: nn.Unfold(2), XC),
        "fold": (lambda: nn.Fold([3, 3], 2), randn(1, 8, 4)),
        "cosine_similarity": (lambda: nn.CosineSimilarity(), X, randn(3, 4, seed=7)),
        "pairwise_distance": (lambda: nn.PairwiseDistance(), X, randn(3, 4, seed=7)),
        "lppool2d": (lambda: nn.LPPool2D(2, 2), np.abs(XC) + 0.1),
        "lppool1d": (lambda: nn.LPPool1D(3, 2, 1), np.abs(XL) + 0.1),
        "unflatten": (lambda: nn.Unflatten(1, [2, 3]), randn(2, 6, 2)),
        "reflection_pad2d": (lambda: nn.ReflectionPad2D([1, 2, 0, 1]), XC),
        "replication_pad1d": (lambda: nn.ReplicationPad1D(2), XL),
        "circular_pad2d": (lambda: nn.CircularPad2D(1), XC),
        "constant_pad3d": (lambda: nn.ConstantPad3D(1, 0.5), randn(1, 1, 2, 2, 2)),
    },
    "shape_",
)

_ACTS = {
    "relu": nn.ReLU,
    "relu6": nn.ReLU6,
    "gelu": nn.GELU,
    "gelu_tanh": lambda: nn.GELU(True),
    "softmax": nn.Softmax,
    "softmax_axis0": lambda: nn.Softmax(0),
    "log_softmax": nn.LogSoftmax,
    "sigmoid": nn.Sigmoid,
    "tanh": nn.Tanh,
    "leaky_relu": lambda: nn.LeakyReLU(0.2),
    "elu": nn.ELU,
    "selu": nn.SELU,
    "celu": lambda: nn.CELU(0.5),
    "silu": nn.SiLU,
    "swish": nn.Swish,
    "hardswish": nn.Hardswish,
    "hardsigmoid": nn.Hardsigmoid,
    "hardtanh": lambda: nn.Hardtanh(-2.0, 2.0),
    "hardshrink": nn.Hardshrink,
    "softshrink": nn.Softshrink,
    "mish": nn.Mish,
    "softplus": lambda: nn.Softplus(2, 5),
    "softsign": nn.Softsign,
    "tanhshrink": nn.Tanhshrink,
    "log_sigmoid": nn.LogSigmoid,
    "thresholded_relu": nn.ThresholdedReLU,
    "maxout": lambda: nn.Maxout(2),
    "softmax2d": nn.Softmax2D,
}
_register({k: (v, XC) for k, v in _ACTS.items()}, "act_")
_register({"glu": (nn.GLU, randn(2, 3, 4))}, "act_")
_register({"rrelu_eval": (nn.RReLU, XC)}, "act_", eval_mode=True)

XB = (randn(4, 3, 2, seed=40) * 2 + 1).astype("float32")
XB4 = (randn(2, 3, 2, 2, seed=41) * 2 - 1).astype("float32")
_register(
    {
        "batchnorm1d": (lambda: nn.BatchNorm1D(3), XB),
        "batchnorm1d_nc": (lambda: nn.BatchNorm1D(3, momentum=0.5), randn(5, 3, seed=42)),
        "batchnorm2d": (lambda: nn.BatchNorm2D(3, epsilon=1e-3), XB4),
        "batchnorm2d_nhwc": (lambda: nn.BatchNorm2D(2, data_format="NHWC"), XB4),
        "batchnorm2d_noaffine": (
            lambda: nn.BatchNorm2D(3, weight_attr=False, bias_attr=False),
            XB4,
        ),
        "batchnorm3d": (lambda: nn.BatchNorm3D(1), randn(2, 1, 2, 2, 2, seed=43)),
        "batchnorm_legacy": (lambda: nn.BatchNorm(3, act="relu"), XB4),
        "layernorm": (lambda: nn.LayerNorm(4), randn(2, 3, 4, seed=44)),
        "layernorm_2d": (lambda: nn.LayerNorm([3, 2], epsilon=1e-3), XB),
        "groupnorm": (lambda: nn.GroupNorm(3, 3), XB4),
        "instancenorm1d": (lambda: nn.InstanceNorm1D(3), randn(2, 3, 5, seed=45)),
        "instancenorm2d": (lambda: nn.InstanceNorm2D(3), XB4),
        "local_response_norm": (lambda: nn.LocalResponseNorm(3), XB4),
    },
    "norm_",
)
_register(
    {
        "batchnorm2d_3_steps": (lambda: nn.BatchNorm2D(3, momentum=0.8), XB4),
    },
    "norm_",
    calls=3,
)
_register(
    {
        "batchnorm1d_eval": (lambda: nn.BatchNorm1D(3), XB),
        "batchnorm2d_eval": (lambda: nn.BatchNorm2D(3), XB4),
        "batchnorm_legacy_eval": (lambda: nn.BatchNorm(3), XB4),
    },
    "norm_",
    eval_mode=True,
)
_register(
    {
        "batchnorm2d_global_stats": (lambda: nn.BatchNorm2D(3, use_global_stats=True), XB4),
        "batchnorm_legacy_is_test": (lambda: nn.BatchNorm(3, is_test=True), XB4),
    },
    "norm_",
)

LOGITS = randn(4, 3, seed=50)
LAB = np.array([0, 2, 1, 2])
P = (np.random.default_rng(62).random((2, 4)) * 0.9 + 0.05).astype("float32")
Y01 = (np.random.default_rng(63).random((2, 4)) > 0.5).astype("float32")
A, B = randn(2, 4, seed=60), randn(2, 4, seed=61)
_register(
    {
        "cross_entropy": (nn.CrossEntropyLoss, LOGITS, LAB),
        "cross_entropy_args": (
            lambda: nn.CrossEntropyLoss(
                weight=T(np.array([1.0, 2.0, 0.5], "float32")), ignore_index=1, reduction="sum"
            ),
            LOGITS,
            LAB,
        ),
        "cross_entropy_smooth": (lambda: nn.CrossEntropyLoss(label_smoothing=0.1), LOGITS, LAB),
        "mse": (nn.MSELoss, A, B),
        "l1": (lambda: nn.L1Loss("sum"), A, B),
        "nll": (nn.NLLLoss, np.log(P.T.copy() / P.T.sum(1, keepdims=True)), np.array([0, 1, 1, 0])),
        "bce_logits": (nn.BCEWithLogitsLoss, A, Y01),
        "bce_logits_pos_weight": (
            lambda: nn.BCEWithLogitsLoss(pos_weight=T(np.array([1.0, 2.0, 3.0, 0.5], "float32"))),
            A,
            Y01,
        ),
        "bce": (nn.BCELoss, P, Y01),
        "smooth_l1": (lambda: nn.SmoothL1Loss(delta=0.5), A, B),
        "kl_div": (lambda: nn.KLDivLoss("batchmean"), np.log(P), P[::-1].copy()),
        "margin_ranking": (lambda: nn.MarginRankingLoss(0.1), A, B, np.sign(randn(2, 4, seed=9))),
        "cosine_embedding": (nn.CosineEmbeddingLoss, A, B, np.array([1, -1])),
        "hinge_embedding": (nn.HingeEmbeddingLoss, A, np.sign(randn(2, 4, seed=9))),
        "soft_margin": (nn.SoftMarginLoss, A, np.sign(randn(2, 4, seed=9))),
        "multi_label_soft_margin": (nn.MultiLabelSoftMarginLoss, A, Y01),
        "triplet_margin": (nn.TripletMarginLoss, A, B, randn(2, 4, seed=10)),
        "poisson_nll": (nn.PoissonNLLLoss, A, np.abs(B)),
        "gaussian_nll": (nn.GaussianNLLLoss, A, B, np.abs(randn(2, 4, seed=11)) + 0.1),
        "huber": (lambda: nn.HuberLoss(delta=0.5), A, B),
        "multi_margin": (lambda: nn.MultiMarginLoss(margin=0.5), LOGITS, LAB),
        "triplet_with_distance": (
            lambda: nn.TripletMarginWithDistanceLoss(margin=0.5, swap=True),
            A,
            B,
            randn(2, 4, seed=10),
        ),
    },
    "loss_",
)


def case_max_unpool_layer():
    x = T(randn(1, 2, 4, 4, seed=31), grad=True)
    pool, unpool = nn.MaxPool2D(2, return_mask=True), nn.MaxUnPool2D(2)
    out, mask = pool(x)
    up = unpool(out, mask)
    (up * T(randn(1, 2, 4, 4, seed=3))).sum().backward()
    return [
        up,
        x.grad,
        str(unpool),
        str(nn.MaxUnPool2D(2, 1, 0, output_size=[4, 4])),
        str(nn.LPPool2D(2, 3, stride=1, padding=1, ceil_mode=True)),
    ]


def case_dropout_train_eval():
    x = T(randn(4, 6, seed=12), grad=True)
    d = nn.Dropout(0.5)
    d.eval()
    y_eval = d(x)
    d2 = nn.Dropout(0.3, mode="downscale_in_infer")
    d2.eval()
    d0 = nn.Dropout(0.0)
    d1 = nn.Dropout(1.0)
    outs = [y_eval, d2(x), d0(x), d1(x)]
    sum(o.sum() for o in outs).backward()
    layers = [
        d,
        d2,
        d0,
        d1,
        nn.Dropout2D(0.2),
        nn.Dropout3D(),
        nn.AlphaDropout(0.1),
        nn.FeatureAlphaDropout(0.2),
    ]
    evals = []
    for layer in layers[4:]:
        layer.eval()
        evals.append(layer(T(randn(2, 3, 2, 2, 2) if "3D" in str(layer) else randn(2, 3, 2, 2))))
    return {
        "out": outs + evals,
        "grad": x.grad,
        "repr": [str(m) for m in layers],
        "training": [m.training for m in layers],
    }


def case_batchnorm_train_then_eval():
    bn = nn.BatchNorm2D(3, momentum=0.7)
    x = T(XB4)
    outs = [bn(x), bn(T(XB4 * 0.5 + 1))]
    bn.eval()
    outs.append(bn(x))
    bn.train()
    outs.append(bn(x))
    return {"out": outs, "mean": bn._mean, "var": bn._variance, "state": _summary(bn)["state_dict"]}


def case_layer_errors():
    return [
        expect_error(lambda: nn.Conv2D(3, 4, 3, groups=2)),
        expect_error(lambda: nn.Conv2D(2, 4, 3, padding=[1, 1], padding_mode="reflect")),
        expect_error(lambda: nn.BatchNorm2D(3)(T(randn(2, 3)))),
        expect_error(lambda: nn.BatchNorm1D(3)(T(randn(2, 3, 2, 2)))),
        expect_error(lambda: nn.Embedding(4, 2, padding_idx=5)),
        expect_error(lambda: nn.GroupNorm(2, 3)(T(randn(1, 3, 2)))),
        expect_error(lambda: nn.CrossEntropyLoss(reduction="avg")),
    ]


def case_reprs():
    layers = [
        nn.Conv2D(2, 4, 3, stride=1, padding=[1, 2]),
        nn.Conv2D(2, 4, 3, stride=(1, 2), padding=(1, 0, 2, 1)),
        nn.Conv2D(2, 4, [3, 3], padding="VALID"),
        nn.Conv2D(2, 4, 3, dilation=(2, 1)),
        nn.Conv2DTranspose(4, 2, 3, output_padding=[1, 0], stride=2),
        nn.Conv2DTranspose(4, 2, 3, padding=1, groups=2, dilation=2),
        nn.Conv1D(2, 4, 3, padding=2, padding_mode="circular"),
        nn.MaxPool2D([2, 3], stride=[1, 2], padding="SAME"),
        nn.AvgPool1D(2, padding=[1, 0]),
        nn.LayerNorm((2, 3)),
        nn.Embedding(5, 2, padding_idx=-1),
        nn.Upsample(scale_factor=[2, 3], mode="bicubic"),
        nn.Upsample(size=4, mode="linear", data_format="NCW"),
        nn.Pad2D([1, 2, 3, 4], mode="replicate", value=1.5, data_format="NHWC"),
        nn.Flatten(start_axis=2, stop_axis=3),
        nn.ELU(alpha=2),
        nn.GELU("tanh"),
        nn.Unfold([2, 3], dilations=2, paddings=1, strides=[1, 2]),
        nn.Fold([4, 5], [2, 2], strides=2),
        nn.InstanceNorm1D(3, epsilon=1e-3, weight_attr=False, bias_attr=False),
        nn.GroupNorm(1, 3, epsilon=1e-3, data_format="NHWC"),
        nn.BatchNorm1D(3, data_format="NLC"),
        nn.BatchNorm3D(3, data_format="NDHWC"),
        nn.PReLU(1, 0.3, data_format="NHWC"),
        nn.AdaptiveAvgPool2D((2, 3)),
        nn.AdaptiveMaxPool1D(3, return_mask=True),
        nn.BatchNorm(3, act="relu"),
        nn.Dropout2D(p=0.3, data_format="NHWC"),
        nn.CosineSimilarity(axis=0, eps=1e-6),
        nn.PairwiseDistance(p=1.0, epsilon=1e-5, keepdim=True),
        nn.LocalResponseNorm(5, 1e-3, 0.5, 2.0),
        nn.RReLU(0.1, 0.2),
        nn.ThresholdedReLU(0.5, 1.0),
        nn.Softplus(beta=1.5, threshold=15.0),
        nn.SyncBatchNorm(3),
        nn.PixelShuffle(2, "NHWC"),
        nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Dropout(0.1)),
    ]
    return [str(m) for m in layers]


def case_reprs_with_names():
    layers = [
        nn.Linear(2, 3, name="fc"),
        nn.ReLU(name="r"),
        nn.Softmax(name="s"),
        nn.Dropout(name="d"),
        nn.LayerNorm(3, name="ln"),
        nn.BatchNorm2D(3, name="bn"),
        nn.MaxPool2D(2, name="mp"),
        nn.GELU(name="g"),
        nn.PReLU(name="p"),
        nn.Embedding(3, 2, name="e"),
        nn.Upsample(scale_factor=2, name="u"),
        nn.Pad2D(1, name="p2"),
        nn.AvgPool1D(2, name="a"),
        nn.AdaptiveMaxPool2D(2, name="a"),
        nn.GroupNorm(1, 2, name="g"),
        nn.InstanceNorm2D(2, name="i"),
        nn.LocalResponseNorm(3, name="l"),
        nn.Bilinear(2, 2, 2, name="b"),
        nn.Hardtanh(name="h"),
        nn.Maxout(2, name="m"),
        nn.RReLU(name="r"),
        nn.SELU(name="s"),
        nn.Silu(name="s"),
        nn.Dropout2D(name="d"),
        nn.PixelShuffle(2, name="p"),
        nn.Unfold(2, name="u"),
        nn.PairwiseDistance(name="p"),
        nn.LPPool2D(2, 2, name="l"),
        nn.MaxUnPool2D(2, name="m"),
        nn.Unflatten(1, [2], name="u"),
        nn.BatchNorm1D(2, name="b"),
    ]
    return [str(m) for m in layers]


def case_attributes_model_code_reads():
    """Private and public attributes of common layers as Paddle 3.3.1 sets them (PaddleClas's
    backbones read AdaptiveAvgPool2D._output_size, conv._in_channels, ...)."""
    w = paddle.ParamAttr(name="w_attr")
    layers = {
        "conv2d": (nn.Conv2D(3, 4, 3, stride=2, padding=1, weight_attr=w), None),
        "conv2d_nhwc": (nn.Conv2D(3, 4, 3, data_format="NHWC"), None),
        "depthwise": (nn.Conv2D(3, 6, 3, groups=3), None),
        "conv1d": (nn.Conv1D(3, 4, 3, bias_attr=False), None),
        "conv3d_t": (nn.Conv3DTranspose(3, 4, 3), None),
        "linear": (nn.Linear(3, 4, bias_attr=False), None),
        "bn2d": (nn.BatchNorm2D(4), None),
        "bn": (nn.BatchNorm(4), None),
        "ln": (nn.LayerNorm(4), None),
        "gn": (nn.GroupNorm(2, 4), None),
        "in2d": (nn.InstanceNorm2D(4), None),
        "aap1d": (nn.AdaptiveAvgPool1D(2), None),
        "aap2d": (nn.AdaptiveAvgPool2D(1), None),
        "aap3d": (nn.AdaptiveAvgPool3D([1, 2, 2]), None),
        "amp1d": (nn.AdaptiveMaxPool1D(2), None),
        "amp2d": (nn.AdaptiveMaxPool2D(1, return_mask=True), None),
        "emb": (nn.Embedding(10, 4, padding_idx=0), None),
        "pad2d": (nn.Pad2D([1, 2, 3, 4], value=1.5), None),
        "prelu": (nn.PReLU(), None),
    }
    names = (
        "_in_channels _out_channels _kernel_size _stride _padding _dilation _groups "
        "_data_format _channel_dim _op_type _use_cudnn _device "
        "_num_features _momentum _epsilon _normalized_shape _num_groups _output_size "
        "output_size _return_mask return_mask _num_embeddings _embedding_dim _padding_idx "
        "_size _is_distributed _remote_prefetch padding value _mode _fuse_with_relu _in_place"
    ).split()
    attr_names = "_param_attr _bias_attr _weight_attr".split()
    out = {}
    for key, (layer, _) in layers.items():
        got = {n: repr(getattr(layer, n)) for n in names if hasattr(layer, n)}
        for n in attr_names:
            if hasattr(layer, n):
                v = getattr(layer, n)
                got[n] = v.name if isinstance(v, paddle.ParamAttr) else repr(v)
        out[key] = got
    return out


def case_incubate_fused_linear_and_fp16_guard():
    """paddle.incubate.nn.FusedLinear's parameters (seeded) and repr; static.amp.fp16_guard is
    a no-op in dynamic mode (Paddle's CPU build has no FusedLinear forward kernel)."""
    paddle.seed(3)
    a = paddle.incubate.nn.FusedLinear(3, 4)
    b = paddle.incubate.nn.FusedLinear(3, 4, transpose_weight=True, bias_attr=False)
    with paddle.static.amp.fp16_guard():
        y = paddle.ones([2]) * 2
    return [a.state_dict(), b.state_dict(), str(a), a.transpose_weight, y]


# -- paddle.nn.Parameter's constructor forms ----------------------------------------------------
def case_nn_parameter_forms():
    """``Parameter(tensor, requires_grad)``, ``Parameter(shape, dtype, **attrs)`` (its values are
    uninitialized in Paddle: not recorded) and ``Parameter()``."""
    P = paddle.nn.Parameter
    ones = paddle.ones([2], "float64")
    forms = [
        lambda: P(ones),
        lambda: P(ones, False),
        lambda: P(data=ones),
        lambda: P(ones, requires_grad=False),
        lambda: P([2, 3], "float64"),
        lambda: P([2, 3], dtype="float32", trainable=False),
        lambda: P(),
    ]
    out = []
    for make in forms:
        p = make()
        out.append([list(p.shape), str(p.dtype), p.stop_gradient, p.trainable, p.persistable])
    out.append(P([1], "float32", name="w2").name)
    out.append(expect_error(lambda: P([2, 3])))
    out.append(P(ones).numpy())
    return out
