"""paddle.nn.functional: activations, losses, convolution, pooling, normalization, vision."""

from __future__ import annotations

import numpy as np

from . import Row, empty, pos, rand

T4 = (1e-4, 1e-5)


def F(op, *args, **kw):
    return Row(op, *args, api=f"nn.functional.{op}", **kw)


def act(op, **kw):
    """An elementwise activation: float32, float64 0-d, empty."""
    return [
        F(op, (rand(2, 3),), kw),
        F(op, (rand(dtype="float64", seed=2),), kw, tag="f64-0d"),
        F(op, (empty(0, 2),), kw, tag="empty", grad=False),
    ]


X4 = rand(2, 3, 4, 4)  # NCHW
X3 = rand(2, 3, 5)  # NCL
LOGIT = rand(4, 3)
QKV = (rand(2, 4, 2, 8), rand(2, 5, 2, 8, seed=1), rand(2, 5, 2, 8, seed=2))  # [b, s, heads, d]
LABEL = np.array([0, 2, 1, 2])
P = pos(4, 3, low=0.05, high=0.95)
Y01 = np.array([[0, 1, 1], [1, 0, 0], [0, 0, 1], [1, 1, 0]], "float32")

ROWS: list[Row] = [
    *act("relu"),
    *act("relu6"),
    *act("silu"),
    *act("swish"),
    *act("mish"),
    *act("selu"),
    *act("softsign"),
    *act("tanhshrink"),
    *act("log_sigmoid"),
    *act("hardswish"),
    *act("elu"),
    *act("elu", alpha=0.5),
    *act("celu", alpha=1.5),
    *act("gelu"),
    *act("gelu", approximate=True),
    *act("hardsigmoid"),
    *act("hardtanh", min=-0.5, max=0.5),
    *act("hardshrink", threshold=0.3),
    *act("softshrink", threshold=0.3),
    *act("leaky_relu", negative_slope=0.2),
    *act("softplus", beta=2.0, threshold=1.0),
    *act("thresholded_relu", threshold=0.5),
    *act("sigmoid"),
    *act("tanh"),
    # Tensor.softmax is paddle.compat's torch-style softmax (dim=), not this op's method
    F(
        "softmax",
        (rand(2, 3),),
        bad=(((rand(2, 3),), {"axis": 2}),),
        method=False,
    ),
    F("softmax", (rand(2, 3, 4),), {"axis": 1}, tag="axis1", method=False),
    F("softmax", (rand(2, 3),), {"dtype": "float64"}, tag="dtype", method=False),
    F("log_softmax", (rand(2, 3),)),
    F("log_softmax", (rand(2, 3, 4),), {"axis": 0}, tag="axis0"),
    F("glu", (rand(2, 4),)),
    F("glu", (rand(4, 3),), {"axis": 0}, tag="axis0"),
    F("maxout", (rand(2, 4, 2, 2),), {"groups": 2}),
    F("prelu", (rand(2, 3, 2), np.array([0.25], "float32"))),
    F("prelu", (rand(2, 3, 2), pos(3)), tag="channel"),
    F("swiglu", (rand(2, 4),)),
    F("swiglu", (rand(2, 3), rand(2, 3, seed=1)), tag="xy"),
    # random ops, deterministic cases: eval mode, p=0, p=1
    F("dropout", (rand(2, 3),), {"training": False}),
    F("dropout", (rand(2, 3),), {"p": 0.0}, tag="p0"),
    F("dropout", (rand(2, 3),), {"p": 1.0}, tag="p1"),
    F("dropout", (rand(2, 3),), {"training": False, "mode": "downscale_in_infer"}, tag="downscale"),
    F("dropout1d", (X3,), {"training": False}),
    F("dropout2d", (X4,), {"training": False}),
    F("dropout3d", (rand(1, 2, 2, 2, 2),), {"training": False}),
    F("alpha_dropout", (rand(2, 3),), {"training": False}),
    F("feature_alpha_dropout", (X4,), {"training": False}),
    F("rrelu", (rand(2, 3),), {"training": False}),
    F("rrelu", (rand(2, 3),), {"lower": 0.1, "upper": 0.3, "training": False}, tag="range"),
    # common
    F(
        "linear",
        (rand(2, 3), rand(3, 4, seed=1), rand(4, seed=2)),
        bad=(((rand(2, 3), rand(4, 4, seed=1)), {}),),
    ),
    F("linear", (rand(2, 3), rand(3, 4, seed=1)), tag="no-bias"),
    F("bilinear", (rand(2, 3), rand(2, 2, seed=1), rand(4, 3, 2, seed=2), rand(1, 4, seed=3))),
    F("cosine_similarity", (rand(2, 3), rand(2, 3, seed=1))),
    F("cosine_similarity", (rand(2, 3), rand(3, seed=1)), {"axis": -1}, tag="bcast"),
    F("pairwise_distance", (rand(2, 3), rand(2, 3, seed=1))),
    F("pairwise_distance", (rand(2, 3), rand(2, 3, seed=1)), {"p": 1.0, "keepdim": True}, tag="p1"),
    F("normalize", (rand(2, 3),)),
    F("normalize", (rand(2, 3),), {"p": 1, "axis": 0}, tag="p1"),
    F("pdist", (rand(4, 3),)),
    Row("pdist", (rand(4, 3),), {"p": 1.0}, tag="paddle-p1"),
    F("one_hot", (LABEL, 3), bad=(((LABEL, 2), {}), ((np.array([-1]), 3), {}))),
    F("label_smooth", (Y01,)),
    F("label_smooth", (Y01,), {"epsilon": 0.2}, tag="eps"),
    F("sequence_mask", (np.array([1, 3, 0]),)),
    F("sequence_mask", (np.array([1, 3]),), {"maxlen": 4, "dtype": "float32"}, tag="maxlen"),
    F(
        "embedding",
        (np.array([[0, 2], [1, 0]]), rand(3, 4)),
        bad=(((np.array([3]), rand(3, 4)), {}),),
    ),
    F("embedding", (np.array([[0, 2], [1, 0]]), rand(3, 4)), {"padding_idx": 0}, tag="pad"),
    F("pad", (X4, [1, 0, 0, 2])),
    F("pad", (X4, [1, 1, 1, 1]), {"mode": "reflect"}, tag="reflect"),
    F("pad", (X4, [1, 1, 1, 1]), {"mode": "replicate"}, tag="replicate"),
    F("pad", (X4, [1, 0, 1, 0]), {"mode": "circular"}, tag="circular"),
    F("pad", (X3, [2, 1]), {"value": 0.5}, tag="1d"),
    F("zeropad2d", (X4, [1, 0, 0, 2])),
    F("pixel_shuffle", (rand(1, 4, 2, 2), 2)),
    F("pixel_unshuffle", (rand(1, 1, 4, 4), 2)),
    F("channel_shuffle", (rand(1, 4, 2, 2), 2)),
    # Tensor.unfold is a different op (tensor_unfold): no method check
    F("unfold", (X4, [2, 2]), method=False),
    F("unfold", (X4, [2, 3]), {"strides": 2, "paddings": 1}, tag="strided", method=False),
    F("fold", (rand(1, 12, 9), [4, 4], [2, 2])),
    F("temporal_shift", (rand(4, 4, 2, 2), 2)),
    F("temporal_shift", (rand(4, 4, 2, 2), 2), {"shift_ratio": 0.25}, tag="ratio"),
    # losses
    F("mse_loss", (LOGIT, P), bad=(((LOGIT, P), {"reduction": "avg"}),)),
    F("mse_loss", (LOGIT, P), {"reduction": "none"}, tag="none"),
    F("l1_loss", (LOGIT, P), {"reduction": "sum"}),
    F("smooth_l1_loss", (LOGIT, P)),
    F("smooth_l1_loss", (LOGIT, P), {"delta": 0.5, "reduction": "none"}, tag="delta"),
    F("square_error_cost", (LOGIT, P)),
    F("soft_margin_loss", (LOGIT, Y01 * 2 - 1)),
    F("binary_cross_entropy", (P, Y01)),
    F("binary_cross_entropy", (P, Y01), {"weight": pos(3), "reduction": "sum"}, tag="weight"),
    F("binary_cross_entropy_with_logits", (LOGIT, Y01)),
    F(
        "binary_cross_entropy_with_logits",
        (LOGIT, Y01),
        {"pos_weight": pos(3), "reduction": "none"},
        tag="pos-w",
    ),
    F("cross_entropy", (LOGIT, LABEL)),
    F("cross_entropy", (LOGIT, LABEL[:, None]), {"reduction": "none"}, tag="none"),
    F("cross_entropy", (LOGIT, LABEL), {"weight": pos(3), "ignore_index": 1}, tag="weight"),
    F("cross_entropy", (LOGIT, P / P.sum(-1, keepdims=True)), {"soft_label": True}, tag="soft"),
    F("cross_entropy", (LOGIT, LABEL), {"label_smoothing": 0.1}, tag="smooth"),
    F(
        "cross_entropy",
        (LOGIT, np.array([0, 2, 1, 5])),
        tag="bad-label",
        paddle_error="label out of range",
    ),
    F("softmax_with_cross_entropy", (LOGIT, LABEL[:, None])),
    F(
        "softmax_with_cross_entropy",
        (LOGIT, LABEL[:, None]),
        {"return_softmax": True},
        tag="softmax",
    ),
    F("nll_loss", (np.log(P), LABEL), bad=(((np.log(P), np.array([0, 3, 1, 2])), {}),)),
    F("nll_loss", (np.log(P), LABEL), {"weight": pos(3), "reduction": "sum"}, tag="weight"),
    F("kl_div", (np.log(P), P[::-1].copy())),
    F("kl_div", (np.log(P), P[::-1].copy()), {"reduction": "batchmean"}, tag="batchmean"),
    F("kl_div", (np.log(P), np.log(P[::-1])), {"log_target": True}, tag="log-target"),
    F("log_loss", (P[:, :1], Y01[:, :1])),
    F("dice_loss", (P, LABEL[:, None])),
    F("margin_ranking_loss", (rand(4), rand(4, seed=1), np.array([1, -1, 1, 1], "float32"))),
    F("hinge_embedding_loss", (LOGIT, Y01 * 2 - 1)),
    F("cosine_embedding_loss", (rand(4, 3), rand(4, 3, seed=1), np.array([1, -1, 1, -1], "int64"))),
    F("triplet_margin_loss", (rand(4, 3), rand(4, 3, seed=1), rand(4, 3, seed=2))),
    F("triplet_margin_with_distance_loss", (rand(4, 3), rand(4, 3, seed=1), rand(4, 3, seed=2))),
    F("multi_label_soft_margin_loss", (LOGIT, Y01)),
    F("multi_margin_loss", (LOGIT, LABEL)),
    F("poisson_nll_loss", (LOGIT, P)),
    F("poisson_nll_loss", (P, P[::-1].copy()), {"log_input": False, "full": True}, tag="full"),
    F("gaussian_nll_loss", (LOGIT, P, pos(4, 3, seed=3))),
    F("sigmoid_focal_loss", (LOGIT, Y01)),
    F("sigmoid_focal_loss", (LOGIT, Y01, np.array([2.0], "float32")), tag="normalizer"),
    # convolution
    F("conv1d", (X3, rand(4, 3, 2, seed=1), rand(4, seed=2)), tol=T4),
    F(
        "conv1d",
        (X3, rand(6, 1, 3, seed=1)),
        {"groups": 3, "padding": 1, "stride": 2},
        tag="groups",
        tol=T4,
    ),
    F(
        "conv2d",
        (X4, rand(2, 3, 3, 3, seed=1), rand(2, seed=2)),
        tol=T4,
        bad=(
            ((X4, rand(2, 4, 3, 3, seed=1)), {}),
            ((X4, rand(2, 3, 3, 3, seed=1)), {"stride": 0}),
            ((X4, rand(2, 3, 3, 3, seed=1)), {"dilation": 0}),
            ((X4, rand(2, 3, 3, 3, seed=1)), {"padding": -1}),
        ),
    ),
    F(
        "conv2d",
        (X4, rand(6, 1, 2, 2, seed=1)),
        {"groups": 3, "padding": "SAME", "dilation": 2},
        tag="groups-same",
        tol=T4,
    ),
    F(
        "conv2d",
        (np.ascontiguousarray(X4.transpose(0, 2, 3, 1)), rand(2, 3, 3, 3, seed=1)),
        {"data_format": "NHWC", "stride": 2, "padding": [1, 0]},
        tag="nhwc",
        tol=T4,
    ),
    # 1x1 without padding: a contraction over channels on CPU (nn/functional/_conv_cpu._pointwise)
    F("conv2d", (X4, rand(5, 3, 1, 1, seed=1), rand(5, seed=2)), tag="1x1", tol=T4),
    F(
        "conv2d",
        (np.ascontiguousarray(X4.transpose(0, 2, 3, 1)), rand(4, 3, 1, 1, seed=1)),
        {"data_format": "NHWC", "stride": 2},
        tag="1x1-nhwc-stride",
        tol=T4,
    ),
    F("conv1d", (X3, rand(2, 3, 1, seed=1)), {"stride": 3}, tag="1x1-stride", tol=T4),
    F("conv2d", (np.zeros((0, 3, 4, 4), "float32"), rand(5, 3, 1, 1, seed=1)), tag="1x1-empty"),
    F("conv3d", (rand(1, 2, 3, 3, 3), rand(2, 2, 2, 2, 2, seed=1)), tol=T4),
    F("conv1d_transpose", (X3, rand(3, 2, 3, seed=1)), {"stride": 2}, tol=T4),
    F(
        "conv2d_transpose",
        (X4, rand(3, 2, 2, 2, seed=1), rand(2, seed=2)),
        {"stride": 2, "padding": 1},
        tol=T4,
    ),
    F(
        "conv2d_transpose",
        (X4, rand(3, 1, 3, 3, seed=1)),
        {"groups": 3, "output_padding": 1, "stride": 2},
        tag="groups",
        tol=T4,
    ),
    F("conv3d_transpose", (rand(1, 2, 2, 2, 2), rand(2, 1, 2, 2, 2, seed=1)), tol=T4),
    # pooling
    F("avg_pool1d", (X3, 2)),
    F("avg_pool1d", (X3, 3), {"stride": 2, "padding": 1, "exclusive": False}, tag="pad"),
    F("avg_pool2d", (X4, 2)),
    F("avg_pool2d", (X4, 3), {"stride": 2, "padding": 1, "ceil_mode": True}, tag="ceil"),
    F("avg_pool3d", (rand(1, 2, 4, 4, 4), 2)),
    F("max_pool1d", (X3, 2)),
    F("max_pool1d", (X3, 2), {"return_mask": True}, tag="mask"),
    F("max_pool2d", (X4, 2), bad=(((X3, 2), {}), ((X4, 2), {"stride": 0}))),
    F("max_pool2d", (X4, 3), {"stride": 1, "padding": 1}, tag="pad"),
    F("max_pool2d", (X4, 2), {"return_mask": True}, tag="mask"),
    F("max_pool3d", (rand(1, 2, 4, 4, 4), 2)),
    F("lp_pool1d", (pos(2, 3, 4), 2.0, 2)),
    F("lp_pool2d", (pos(2, 3, 4, 4), 3.0, 2)),
    F("adaptive_avg_pool1d", (X3, 2)),
    F("adaptive_avg_pool2d", (X4, [3, 2])),
    F("adaptive_avg_pool3d", (rand(1, 2, 4, 4, 4), 2)),
    F("adaptive_max_pool1d", (X3, 2)),
    F("adaptive_max_pool2d", (X4, 3), {"return_mask": True}, tag="mask"),
    F("adaptive_max_pool3d", (rand(1, 2, 4, 4, 4), 2)),
    F("max_unpool1d", (rand(1, 2, 2), np.array([[[1, 2], [0, 3]]], "int32"), 2)),
    F("max_unpool2d", (rand(1, 1, 2, 2), np.array([[[[1, 6], [8, 15]]]], "int32"), 2)),
    F(
        "max_unpool3d",
        (rand(1, 1, 1, 1, 2), np.array([[[[[0, 7]]]]], "int32"), 2),
        {"output_size": [2, 2, 4]},
    ),
    # normalization
    F(
        "layer_norm",
        (rand(2, 3, 4), [4], rand(4, seed=1), rand(4, seed=2)),
        bad=(((rand(2, 3, 4), [3]), {}),),
    ),
    F("layer_norm", (rand(2, 3, 4), [3, 4]), tag="2axes"),
    F("group_norm", (X4, 1), {"weight": rand(3, seed=1), "bias": rand(3, seed=2)}, tol=T4),
    F("instance_norm", (X4,), tol=T4),
    F(
        "instance_norm",
        (X4,),
        {"weight": rand(3, seed=1), "bias": rand(3, seed=2)},
        tag="affine",
        tol=T4,
    ),
    F(
        "batch_norm",
        (X4, np.zeros(3, "float32"), np.ones(3, "float32")),
        {"training": True},
        tol=T4,
    ),
    F(
        "batch_norm",
        (X4, rand(3, seed=1), pos(3, seed=2), rand(3, seed=3), rand(3, seed=4)),
        tag="eval",
        tol=T4,
        xfail={"grad": "Paddle 3.3.1 gives running_mean / running_var no gradient; ours does"},
    ),
    F("local_response_norm", (X4, 3), tol=T4),
    # vision
    F("affine_grid", (rand(1, 2, 3), [1, 1, 2, 3])),
    F("affine_grid", (rand(1, 2, 3), [1, 1, 2, 3]), {"align_corners": False}, tag="no-align"),
    F("grid_sample", (rand(1, 1, 3, 3), rand(1, 2, 2, 2, seed=1, low=-1, high=1))),
    F(
        "grid_sample",
        (rand(1, 1, 3, 3), rand(1, 2, 2, 2, seed=1, low=-1.2, high=1.2)),
        {"mode": "nearest", "padding_mode": "border", "align_corners": False},
        tag="nearest",
    ),
    F("interpolate", (X4,), {"scale_factor": 2, "mode": "nearest"}),
    F("interpolate", (X4,), {"size": [3, 5], "mode": "bilinear"}, tag="bilinear"),
    F(
        "interpolate",
        (X4,),
        {"size": [6, 6], "mode": "bicubic", "align_corners": True},
        tag="bicubic",
        tol=T4,
    ),
    F("interpolate", (X3,), {"size": [7], "mode": "linear", "data_format": "NCW"}, tag="linear"),
    F("upsample", (X4,), {"scale_factor": 2, "mode": "nearest"}),
    F("embedding_renorm_", (np.array([0, 2]), rand(3, 4)), {"max_norm": 1.0}, grad=False),
    *[
        F("scaled_dot_product_attention", QKV, kw, tag=tag)
        for tag, kw in (("", {}), ("causal", {"is_causal": True}), ("scale", {"scale": 0.5}))
    ],
    F(
        "scaled_dot_product_attention",
        (*QKV, rand(2, 2, 4, 5, seed=3) < 0),
        tag="bool-mask",
    ),
    F("scaled_dot_product_attention", (*QKV, rand(1, 1, 4, 5, seed=4)), tag="float-mask"),
    F(
        "gather_tree",
        (
            np.array([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]]),
            np.array([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]]),
        ),
        bad=(
            ((np.zeros((2, 2, 2), "int64"), np.zeros((3, 2, 2), "int64")), {}),
            ((np.zeros((2, 2, 2), "int64"), np.full((2, 2, 2), 2)), {}),
        ),
    ),
    F("gather_tree", (np.zeros((0, 2, 3), "int32"), np.zeros((0, 2, 3), "int32")), tag="empty"),
    # sequence and structured losses (issue 10; more cases in tests/cases/nn_loss_extra.py)
    F(
        "ctc_loss",
        (
            rand(5, 2, 4),
            np.array([[1, 2, 2], [3, 1, 0]], "int32"),
            np.array([5, 4]),
            np.array([3, 2]),
        ),
    ),
    F(
        "rnnt_loss",
        (
            rand(2, 3, 3, 4),
            np.array([[1, 2], [3, 0]], "int32"),
            np.array([3, 2], "int32"),
            np.array([2, 1], "int32"),
        ),
        {"reduction": "none"},
    ),
    F("hsigmoid_loss", (rand(4, 3), LABEL, 3, rand(2, 3, seed=1), rand(2, 1, seed=2))),
    F(
        "multi_label_margin_loss",
        (LOGIT, np.array([[2, -1, 0], [1, 0, -1], [0, 1, 2], [1, -1, 2]])),
    ),
    F("npair_loss", (rand(4, 3), rand(4, 3, seed=1), LABEL.astype("float32"))),
    # fractional max pooling (issue 10; more cases in tests/cases/nn_pooling_extra.py)
    F("fractional_max_pool2d", (rand(2, 3, 7, 6), [4, 3]), {"random_u": 0.3}),
    F(
        "fractional_max_pool2d",
        (rand(2, 3, 7, 6), 3),
        {"kernel_size": 2, "random_u": 0.6},
        tag="kernel",
    ),
    F("fractional_max_pool3d", (rand(1, 2, 5, 4, 6), [3, 2, 4]), {"random_u": 0.45}),
]
