"""paddle.nn.functional losses and the less common ops: forward values and gradients on small
inputs, edge cases, errors. Most cases come from tables (``_nn_util.register``)."""

import numpy as np
import paddle.nn.functional as F
from _nn_util import T
from _nn_util import register as _reg
from _util import expect_error, randn, rng


def _register(table, prefix="", grad=True):
    _reg(table, globals(), prefix, grad)


X = (randn(3, 4) * 3).astype("float32")  # the same inputs as nn_functional.py's
X6 = randn(2, 6, seed=1)
XQ = randn(1, 2, 5, 5, seed=30)
# -- losses -----------------------------------------------------------------------------------
LOGITS = randn(4, 3, seed=50)
LAB = np.array([0, 2, 1, 2])
LAB_IGN = np.array([0, -100, 1, 2])
CW = np.array([1.0, 2.0, 3.0], "float32")
SOFT = rng(51).random((4, 3)).astype("float32")
SOFT = SOFT / SOFT.sum(1, keepdims=True)


def _ce(**kw):
    return lambda x, y: F.cross_entropy(x, y, **kw)


def _ce_w(**kw):
    return lambda x, y, w: F.cross_entropy(x, y, weight=w, **kw)


_register(
    {
        "ce": (F.cross_entropy, LOGITS, LAB),
        "ce_label_n1": (_ce(reduction="none"), LOGITS, LAB.reshape(4, 1)),
        "ce_none": (_ce(reduction="none"), LOGITS, LAB),
        "ce_sum": (_ce(reduction="sum"), LOGITS, LAB),
        "ce_weight": (_ce_w(), LOGITS, LAB, CW),
        "ce_weight_none": (_ce_w(reduction="none"), LOGITS, LAB, CW),
        "ce_ignore": (F.cross_entropy, LOGITS, LAB_IGN),
        "ce_ignore_none": (_ce(reduction="none"), LOGITS, LAB_IGN),
        "ce_ignore_weight": (_ce_w(), LOGITS, LAB_IGN, CW),
        "ce_ignore_pos": (_ce(ignore_index=1), LOGITS, LAB),
        "ce_ignore_neg1": (_ce(ignore_index=-1), LOGITS, np.array([0, -1, 1, 2])),
        "ce_soft": (_ce(soft_label=True), LOGITS, SOFT),
        "ce_soft_none": (_ce(soft_label=True, reduction="none"), LOGITS, SOFT),
        "ce_soft_weight": (_ce_w(soft_label=True), LOGITS, SOFT, CW),
        "ce_soft_weight_none": (_ce_w(soft_label=True, reduction="none"), LOGITS, SOFT, CW),
        "ce_smoothing": (_ce(label_smoothing=0.1), LOGITS, LAB),
        "ce_smoothing_none": (_ce(label_smoothing=0.1, reduction="none"), LOGITS, LAB),
        "ce_smoothing_weight": (_ce_w(label_smoothing=0.2), LOGITS, LAB, CW),
        "ce_no_softmax": (
            _ce(use_softmax=False),
            np.exp(LOGITS) / np.exp(LOGITS).sum(1, keepdims=True),
            LAB,
        ),
        "ce_axis0": (_ce(axis=0, reduction="none"), LOGITS.T.copy(), LAB.reshape(1, 4)),
        "ce_3d": (F.cross_entropy, randn(2, 3, 4, seed=52), np.array([[0, 3, 1], [2, 2, 0]])),
        "ce_int32_label": (F.cross_entropy, LOGITS, LAB.astype("int32")),
        "ce_float64": (F.cross_entropy, LOGITS.astype("float64"), LAB),
        "softmax_with_ce": (F.softmax_with_cross_entropy, LOGITS, LAB.reshape(4, 1)),
        "softmax_with_ce_ignore": (
            lambda x, y: F.softmax_with_cross_entropy(x, y, return_softmax=True),
            LOGITS,
            LAB_IGN.reshape(4, 1),
        ),
        "softmax_with_ce_soft": (
            lambda x, y: F.softmax_with_cross_entropy(x, y, soft_label=True),
            LOGITS,
            SOFT,
        ),
        # Paddle differentiates a soft label as softmax - label even when it does not sum to 1
        "softmax_with_ce_soft_unnormalized": (
            lambda x, y: F.softmax_with_cross_entropy(x, y, soft_label=True),
            LOGITS,
            SOFT * 1.7,
        ),
        "nll": (F.nll_loss, np.log(SOFT), LAB),
        "nll_ignore": (F.nll_loss, np.log(SOFT), LAB_IGN),
        "nll_weight_none": (
            lambda x, y, w: F.nll_loss(x, y, w, reduction="none"),
            np.log(SOFT),
            LAB_IGN,
            CW,
        ),
        "nll_weight": (lambda x, y, w: F.nll_loss(x, y, w), np.log(SOFT), LAB, CW),
        "nll_4d": (
            F.nll_loss,
            np.log(rng(53).random((2, 3, 2, 2)).astype("float32")),
            np.array([[[0, 1], [2, 0]], [[1, 1], [2, 2]]]),
        ),
    },
    "loss_",
)

A = randn(2, 4, seed=60)
B = randn(2, 4, seed=61)
P = (rng(62).random((2, 4)) * 0.9 + 0.05).astype("float32")
Y01 = (rng(63).random((2, 4)) > 0.5).astype("float32")
_register(
    {
        "mse": (F.mse_loss, A, B),
        "mse_none": (lambda a, b: F.mse_loss(a, b, "none"), A, B),
        "mse_sum": (lambda a, b: F.mse_loss(a, b, "sum"), A, B),
        "l1": (F.l1_loss, A, B),
        "l1_none": (lambda a, b: F.l1_loss(a, b, "none"), A, B),
        "smooth_l1": (F.smooth_l1_loss, A, B),
        "smooth_l1_delta": (lambda a, b: F.smooth_l1_loss(a, b, "none", delta=0.5), A, B),
        "smooth_l1_not_huber": (lambda a, b: F.smooth_l1_loss(a, b, "sum", 0.5, False), A, B),
        "square_error_cost": (F.square_error_cost, A, B),
        "log_loss": (F.log_loss, P.reshape(8, 1), Y01.reshape(8, 1)),
        "bce": (F.binary_cross_entropy, P, Y01),
        "bce_weight_none": (
            lambda p, y, w: F.binary_cross_entropy(p, y, w, "none"),
            P,
            Y01,
            randn(2, 4, seed=64),
        ),
        "bce_logits": (F.binary_cross_entropy_with_logits, A, Y01),
        "bce_logits_pos_weight": (
            lambda x, y, w, pw: F.binary_cross_entropy_with_logits(x, y, w, "sum", pw),
            A,
            Y01,
            np.abs(randn(2, 4, seed=65)),
            np.array([1.0, 2.0, 0.5, 3.0], "float32"),
        ),
        "kl_div": (F.kl_div, np.log(P), P[::-1].copy()),
        "kl_div_none": (
            lambda a, b: F.kl_div(a, b, "none"),
            np.log(P),
            np.array([[0.0, 0.3, 0.2, 0.5], [0.1, 0.0, 0.4, 0.5]], "float32"),
        ),
        "kl_div_batchmean": (lambda a, b: F.kl_div(a, b, "batchmean"), np.log(P), P[::-1].copy()),
        "kl_div_log_target": (
            lambda a, b: F.kl_div(a, b, "sum", log_target=True),
            np.log(P),
            np.log(P[::-1]).copy(),
        ),
        "margin_ranking": (
            lambda a, b, y: F.margin_ranking_loss(a, b, y, 0.5, "none"),
            A,
            B,
            np.sign(randn(2, 4, seed=66)),
        ),
        "cosine_embedding": (
            lambda a, b, y: F.cosine_embedding_loss(a, b, y, 0.1, "none"),
            A,
            B,
            np.array([1, -1]),
        ),
        "cosine_embedding_mean": (
            lambda a, b, y: F.cosine_embedding_loss(a, b, y),
            A,
            B,
            np.array([1.0, -1.0], "float32"),
        ),
        "hinge_embedding": (F.hinge_embedding_loss, A, np.sign(randn(2, 4, seed=66))),
        "soft_margin": (F.soft_margin_loss, A, np.sign(randn(2, 4, seed=66))),
        "multi_label_soft_margin": (F.multi_label_soft_margin_loss, A, Y01),
        "sigmoid_focal": (F.sigmoid_focal_loss, A, Y01),
        "sigmoid_focal_norm": (
            lambda x, y, n: F.sigmoid_focal_loss(x, y, n, 0.5, 1.0, "mean"),
            A,
            Y01,
            np.array([3.0], "float32"),
        ),
        "poisson_nll": (F.poisson_nll_loss, A, np.abs(B) * 3),
        "poisson_nll_full": (
            lambda a, b: F.poisson_nll_loss(a, b, log_input=False, full=True, reduction="none"),
            P * 3,
            np.abs(B) * 3,
        ),
        "gaussian_nll": (F.gaussian_nll_loss, A, B, np.abs(randn(2, 4, seed=67))),
        "gaussian_nll_full": (
            lambda a, b, v: F.gaussian_nll_loss(a, b, v, True, reduction="sum"),
            A,
            B,
            np.abs(randn(2, 4, seed=67)),
        ),
        "triplet_margin": (F.triplet_margin_loss, A, B, randn(2, 4, seed=68)),
        "triplet_margin_swap": (
            lambda a, p, n: F.triplet_margin_loss(a, p, n, 0.5, 1, swap=True, reduction="none"),
            A,
            B,
            randn(2, 4, seed=68),
        ),
    },
    "loss_",
)


def case_loss_edges():
    return [
        F.binary_cross_entropy(
            T(np.array([0.0, 1.0, 0.5], "float32")),
            T(np.array([0.0, 0.0, 1.0], "float32")),
            reduction="none",
        ),
        F.binary_cross_entropy_with_logits(
            T(np.array([-50.0, 0.0, 50.0], "float32")),
            T(np.array([1.0, 0.5, 0.0], "float32")),
            reduction="none",
        ),
        F.kl_div(
            T(np.array([-1.0, -2.0], "float32")),
            T(np.array([0.0, 0.5], "float32")),
            reduction="none",
        ),
    ]


def case_loss_errors():
    x, y = T(LOGITS), T(LAB)
    return [
        expect_error(lambda: F.cross_entropy(x, T(np.array([0, 5, 1, 2])))),
        expect_error(lambda: F.cross_entropy(x, y, reduction="foo")),
        expect_error(lambda: F.cross_entropy(x, T(np.array([0, 2, 1])))),
        expect_error(lambda: F.mse_loss(x, x, reduction="batchmean")),
        expect_error(lambda: F.nll_loss(x, y, reduction="foo")),
        expect_error(lambda: F.log_loss(T(P), T(Y01))),
    ]


# -- less common ops --------------------------------------------------------------------------
THETA = np.array(
    [[[0.9, -0.2, 0.1], [0.3, 1.1, -0.2]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], "float32"
)
GRID = (rng(70).random((1, 3, 4, 2)) * 2.4 - 1.2).astype("float32")
GRID5 = (rng(72).random((1, 2, 3, 2, 3)) * 2.4 - 1.2).astype("float32")  # (x, y, z) per point
X5 = randn(1, 2, 3, 4, 5, seed=73)
_register(
    {
        "swiglu": (F.swiglu, X6),
        "swiglu_xy": (F.swiglu, X, randn(3, 4, seed=8)),
        "pdist": (F.pdist, randn(4, 3)),
        "pdist_p1": (lambda x: F.pdist(x, 1.0), randn(4, 3)),
        "affine_grid": (lambda t: F.affine_grid(t, [2, 1, 3, 4]), THETA),
        "affine_grid_no_ac": (lambda t: F.affine_grid(t, [2, 1, 3, 4], align_corners=False), THETA),
        "grid_sample": (F.grid_sample, randn(1, 2, 4, 5), GRID),
        "grid_sample_no_ac": (
            lambda x, g: F.grid_sample(x, g, align_corners=False),
            randn(1, 2, 4, 5),
            GRID,
        ),
        "grid_sample_border": (
            lambda x, g: F.grid_sample(x, g, padding_mode="border"),
            randn(1, 2, 4, 5),
            GRID,
        ),
        "grid_sample_reflection": (
            lambda x, g: F.grid_sample(x, g, padding_mode="reflection", align_corners=False),
            randn(1, 2, 4, 5),
            GRID,
        ),
        "grid_sample_5d": (F.grid_sample, X5, GRID5),
        "grid_sample_5d_reflection": (
            lambda x, g: F.grid_sample(x, g, padding_mode="reflection", align_corners=False),
            X5,
            GRID5,
        ),
        "grid_sample_5d_border_nearest": (
            lambda x, g: F.grid_sample(x, g, mode="nearest", padding_mode="border"),
            X5,
            GRID5,
        ),
        "temporal_shift": (lambda x: F.temporal_shift(x, 2, 0.25), randn(4, 8, 1, 2)),
        "lp_pool2d": (lambda x: F.lp_pool2d(x, 2, 2), np.abs(XQ) + 0.1),
        "lp_pool1d": (lambda x: F.lp_pool1d(x, 3, 3, stride=2), np.abs(randn(1, 2, 7)) + 0.1),
        "dice_loss": (
            F.dice_loss,
            rng(71).random((2, 3, 4)).astype("float32"),
            np.array([[[0], [3], [1]], [[2], [2], [0]]]),
        ),
        "multi_margin": (F.multi_margin_loss, LOGITS, LAB),
        "multi_margin_args": (
            lambda x, y, w: F.multi_margin_loss(x, y, 2, 0.5, w, "none"),
            LOGITS,
            LAB,
            CW,
        ),
        "triplet_with_distance": (F.triplet_margin_with_distance_loss, A, B, randn(2, 4, seed=68)),
    },
    "extra_",
)


def case_extra_max_unpool():
    x = T(randn(1, 2, 4, 4, seed=31), grad=True)
    out, mask = F.max_pool2d(x, 2, return_mask=True)
    up = F.max_unpool2d(out, mask, 2)
    up2 = F.max_unpool2d(out, mask, 2, output_size=[5, 5])
    (up * T(randn(1, 2, 4, 4, seed=3))).sum().backward()
    o1, m1 = F.max_pool1d(T(randn(1, 2, 6)), 2, return_mask=True)
    return [up, up2, x.grad, F.max_unpool1d(o1, m1, 2)]
