"""cross_entropy with label_smoothing (int, one-hot and soft labels, weight, ignore_index, axis),
class_center_sample's deterministic results, and the argument checks Paddle 3.3.1 makes on CPU
for margin_cross_entropy (its CPU build has no kernel: values are checked against the GPU
kernel's documented output in tests/test_nn_loss_margin.py)."""

import numpy as np
import paddle.nn.functional as F
from _nn_util import T
from _nn_util import register as _reg
from _util import expect_error, randn

import paddle


def _register(table, prefix="", grad=True):
    _reg(table, globals(), prefix, grad)


X = randn(4, 3, seed=31)
LAB = np.array([0, 2, 1, 2])
ONEHOT = np.eye(3, dtype="float32")[LAB]
W = np.array([0.5, 1.0, 2.0], "float32")
X3 = randn(2, 3, 4, seed=32)
LAB3 = np.array([[0, 1, 2], [3, 2, 0]])  # axis=1: one-hot over the *last* axis (size 4)
ONEHOT3 = np.eye(3, dtype="float32")[np.array([[0, 1, 2, 1], [2, 2, 0, 1]])].transpose(0, 2, 1)
SOFT = (np.abs(randn(4, 3, seed=33)) + 0.1).astype("float32")
SOFT = SOFT / SOFT.sum(-1, keepdims=True)


def _ce(**kw):
    return lambda x, y: F.cross_entropy(x, y, **kw)


def _ce_w(**kw):
    return lambda x, y, w: F.cross_entropy(x, y, weight=w, **kw)


_register(
    {
        "int": (_ce(label_smoothing=0.1), X, LAB),
        "int_sum": (_ce(label_smoothing=0.1, reduction="sum"), X, LAB),
        "int_none": (_ce(label_smoothing=0.2, reduction="none"), X, LAB),
        "int32": (_ce(label_smoothing=0.1), X, LAB.astype("int32")),
        "onehot": (_ce(label_smoothing=0.1), X, ONEHOT),
        "onehot_none": (_ce(label_smoothing=0.3, reduction="none"), X, ONEHOT),
        "onehot_soft_label": (_ce(label_smoothing=0.1, soft_label=True), X, ONEHOT),
        "soft": (_ce(label_smoothing=0.2), X, SOFT),
        # Paddle's soft-label gradient is softmax - label even when the label does not sum to 1
        "soft_unnormalized_no_smoothing": (_ce(soft_label=True, reduction="sum"), X, SOFT * 2),
        "soft_unnormalized_axis0": (_ce(soft_label=True, axis=0), X, SOFT * 3),
        "smoothing_one": (_ce(label_smoothing=1.0), X, LAB),
        "smoothing_negative_ignored": (_ce(label_smoothing=-0.1), X, LAB),
        "int_weight": (_ce_w(label_smoothing=0.1), X, LAB, W),
        "int_weight_none": (_ce_w(label_smoothing=0.2, reduction="none"), X, LAB, W),
        "onehot_weight": (_ce_w(label_smoothing=0.2), X, ONEHOT, W),
        "onehot_weight_sum": (_ce_w(label_smoothing=0.2, reduction="sum"), X, ONEHOT, W),
        "ignore1": (_ce(label_smoothing=0.1, ignore_index=1), X, LAB),
        "ignore0": (_ce(label_smoothing=0.1, ignore_index=0), X, LAB),
        "ignore1_weight": (_ce_w(label_smoothing=0.1, ignore_index=1), X, LAB, W),
        "soft_label_ignore0": (_ce(soft_label=True, ignore_index=0), X, ONEHOT),
        "axis1_int": (_ce(label_smoothing=0.1, axis=1), X3, LAB3),
        "axis1_int_none": (_ce(label_smoothing=0.1, axis=1, reduction="none"), X3, LAB3),
        "axis1_onehot": (_ce(label_smoothing=0.1, axis=1), X3, ONEHOT3),
        "3d_last_axis": (_ce(label_smoothing=0.1, reduction="none"), X3, LAB3),
        "float64": (_ce(label_smoothing=0.1), X.astype("float64"), ONEHOT),
        "no_softmax": (
            _ce(label_smoothing=0.1, use_softmax=False),
            (np.abs(X) + 0.1) / (np.abs(X) + 0.1).sum(-1, keepdims=True),
            LAB,
        ),
        "all_ignored_mean": (_ce(ignore_index=1), X, np.ones(4, "int64")),
        # a float64 weight makes the loss float64 (Paddle casts the loss to the weight's dtype)
        "weight_float64": (_ce_w(), X, LAB, W.astype("float64")),
        "weight_float64_none": (_ce_w(reduction="none"), X, LAB, W.astype("float64")),
        "soft_weight_float64": (_ce_w(soft_label=True), X, SOFT, W.astype("float64")),
        "smooth_weight_float64_sum": (
            _ce_w(label_smoothing=0.1, reduction="sum"),
            X,
            LAB,
            W.astype("float64"),
        ),
        "all_ignored_weight_mean": (_ce_w(ignore_index=1), X, np.ones(4, "int64"), W),
    },
    "ce_smooth_",
)


def case_ce_smooth_errors():
    x = T(X)
    return [
        expect_error(lambda: F.cross_entropy(x, T(LAB[:, None]), label_smoothing=0.1)),
        expect_error(lambda: F.cross_entropy(x, T(ONEHOT.astype("int64")), label_smoothing=0.1)),
        expect_error(lambda: F.cross_entropy(x, T(LAB.astype("float32")), label_smoothing=0.1)),
        expect_error(lambda: F.cross_entropy(x, T(LAB), label_smoothing=1.5)),
        expect_error(lambda: F.cross_entropy(x, T(np.array([0, 3, 1, 2])), label_smoothing=0.1)),
        expect_error(lambda: F.cross_entropy(x, T(np.array([0, -1, 1, 2])), label_smoothing=0.1)),
        expect_error(
            lambda: F.cross_entropy(x, T(LAB[:, None].astype("float32")), label_smoothing=0.1)
        ),
        expect_error(
            lambda: F.cross_entropy(x, T(np.ones((3, 3), "float32")), label_smoothing=0.1)
        ),
        expect_error(lambda: F.cross_entropy(x, T(LAB[:3]), label_smoothing=0.1)),
        expect_error(lambda: F.cross_entropy(x, T(ONEHOT), soft_label=True, ignore_index=1)),
        expect_error(lambda: F.cross_entropy(T(X3), T(LAB3.T.copy()), axis=1, label_smoothing=0.1)),
        expect_error(lambda: F.cross_entropy(T(X3), T(LAB), label_smoothing=0.1)),
        expect_error(lambda: F.cross_entropy(x, T(LAB), label_smoothing=0.1, reduction="avg")),
        expect_error(lambda: F.cross_entropy(x, T(ONEHOT.astype("float64")), soft_label=True)),
        expect_error(lambda: F.cross_entropy(x, T(ONEHOT.astype("int64")), soft_label=True)),
    ]


# -- class_center_sample: no negatives drawn, or exactly one possible --------------------------
def _ccs(num_classes, num_samples, **kw):
    return lambda y: F.class_center_sample(y, num_classes, num_samples, **kw)


_register(
    {
        "positives_only": (_ccs(20, 6), np.array([17, 10, 5, 18, 8, 8, 19, 14, 10, 14])),
        "more_positives_than_samples": (_ccs(10, 2), np.array([9, 8, 7, 1, 2])),
        "one_negative_left": (_ccs(4, 4), np.array([3, 1, 3, 0])),
        "int32": (_ccs(5, 3), np.array([3, 1, 3, 0], "int32")),
        "labels_out_of_range": (_ccs(5, 2), np.array([7, 1, -1, 7])),
        "group_false": (_ccs(5, 2, group=False), np.array([2, 1, 2])),
    },
    "ccs_",
    grad=False,
)


def case_ccs_errors():
    y = T(np.array([3, 1]))
    return [
        expect_error(lambda: F.class_center_sample(T(np.array([1.0, 2.0], "float32")), 5, 2)),
        expect_error(lambda: F.class_center_sample(y, 5, 6)),
        expect_error(lambda: F.class_center_sample(y, 5, 0)),
        expect_error(lambda: F.class_center_sample(y, 5, -1)),
        expect_error(lambda: F.class_center_sample(y, 0, -1)),
        expect_error(lambda: F.class_center_sample(paddle.zeros([0], "int64"), 5, 2)),
        expect_error(lambda: F.class_center_sample(paddle.zeros([2, 1], "int64"), 5, 2)),
        expect_error(lambda: F.class_center_sample(T(np.array(1)), 5, 2)),
        expect_error(lambda: F.class_center_sample(y, 5, 2, group="ranks")),
        expect_error(lambda: F.class_center_sample(y, 5.0, 2)),
        expect_error(lambda: F.class_center_sample(y, 5, 2.0)),
    ]


# -- margin_cross_entropy: the checks that run before Paddle's (GPU-only) kernel ---------------
def case_margin_ce_errors():
    x, y = T(randn(2, 4, seed=34)), T(np.array([1, 0]))
    return [
        expect_error(lambda: F.margin_cross_entropy(x, y, reduction="avg")),
        expect_error(lambda: F.margin_cross_entropy(x, y, group="ranks")),
        expect_error(lambda: F.margin_cross_entropy(x, paddle.zeros([2, 1, 1], "int64"))),
        expect_error(lambda: F.margin_cross_entropy(x, T(np.array(1)))),
        expect_error(lambda: F.margin_cross_entropy(x, paddle.zeros([2, 2], "int64"))),
        expect_error(lambda: F.margin_cross_entropy(x, paddle.zeros([3], "int64"))),
        expect_error(lambda: F.margin_cross_entropy(x, paddle.zeros([3, 1], "int64"))),
        expect_error(lambda: F.margin_cross_entropy(paddle.zeros([2, 0]), y)),
        expect_error(lambda: F.margin_cross_entropy(paddle.zeros([2, 4], "int64"), y)),
    ]


def case_alias_modules():
    return [
        paddle.nn.functional.loss.margin_cross_entropy is F.margin_cross_entropy,
        paddle.nn.functional.common.class_center_sample is F.class_center_sample,
        hasattr(paddle.Tensor, "diag_embed"),
    ]
