"""paddle.nn.functional sequence and structured losses (issue 10): CTC, RNN-T, hierarchical
sigmoid, adaptive log-softmax, multi-label margin, n-pair. Values, gradients, reductions, dtypes
and errors on small inputs."""

import numpy as np
import paddle.nn.functional as F
from _nn_util import T
from _nn_util import register as _reg
from _util import expect_error, randn


def _register(table, prefix="", grad=True):
    _reg(table, globals(), prefix, grad)


# -- CTC: log_probs [T, B, C+1] logits, labels int32, lengths int64 ---------------------------
CTC_X = randn(6, 3, 5, seed=1)
CTC_LAB = np.array([[1, 2, 2], [3, 1, 0], [4, 4, 0]], "int32")
CTC_IL = np.array([6, 5, 3], "int64")  # [4, 4] needs 3 frames: fits
CTC_LL = np.array([3, 2, 2], "int64")
CTC_IMPOSSIBLE = np.array([6, 5, 2], "int64")  # [4, 4] needs 3 frames


def _ctc(**kw):
    return lambda x, lab, il, ll: F.ctc_loss(x, lab, il, ll, **kw)


_register(
    {
        "ctc": (F.ctc_loss, CTC_X, CTC_LAB, CTC_IL, CTC_LL),
        "ctc_none": (_ctc(reduction="none"), CTC_X, CTC_LAB, CTC_IL, CTC_LL),
        "ctc_sum": (_ctc(reduction="sum"), CTC_X, CTC_LAB, CTC_IL, CTC_LL),
        "ctc_norm_by_times": (_ctc(norm_by_times=True), CTC_X, CTC_LAB, CTC_IL, CTC_LL),
        "ctc_blank_last": (
            _ctc(blank=4, reduction="none"),
            CTC_X,
            np.array([[1, 2, 2], [3, 1, 0], [0, 0, 0]], "int32"),
            CTC_IL,
            CTC_LL,
        ),
        "ctc_impossible": (_ctc(reduction="none"), CTC_X, CTC_LAB, CTC_IMPOSSIBLE, CTC_LL),
        "ctc_impossible_zero_inf": (
            _ctc(reduction="none", zero_infinity=True),
            CTC_X,
            CTC_LAB,
            CTC_IMPOSSIBLE,
            CTC_LL,
        ),
        "ctc_float64": (F.ctc_loss, CTC_X.astype("float64"), CTC_LAB, CTC_IL, CTC_LL),
    },
    "",
)


def case_ctc_errors():
    x, lab, il, ll = T(CTC_X), T(CTC_LAB), T(CTC_IL), T(CTC_LL)
    return [
        expect_error(lambda: F.ctc_loss(x, lab, il, ll, reduction="avg")),
        expect_error(lambda: F.ctc_loss(x, T(CTC_LAB.astype("int64")), il, ll)),
        expect_error(lambda: F.ctc_loss(x, lab, T(CTC_IL.astype("int32")), ll)),
    ]


# -- RNN-T: input [B, T, U+1, V] log-probabilities as given, int32 labels and lengths ---------
RNNT_X = randn(2, 4, 4, 5, seed=2)
RNNT_LAB = np.array([[1, 2, 3], [4, 1, 0]], "int32")
RNNT_IL = np.array([4, 3], "int32")
RNNT_LL = np.array([3, 2], "int32")


def _rnnt(**kw):
    return lambda x, lab, il, ll: F.rnnt_loss(x, lab, il, ll, **kw)


_register(
    {
        "rnnt": (F.rnnt_loss, RNNT_X, RNNT_LAB, RNNT_IL, RNNT_LL),
        "rnnt_none_no_fastemit": (
            _rnnt(reduction="none", fastemit_lambda=0.0),
            RNNT_X,
            RNNT_LAB,
            RNNT_IL,
            RNNT_LL,
        ),
        "rnnt_sum_fastemit": (
            _rnnt(reduction="sum", fastemit_lambda=0.5),
            RNNT_X,
            RNNT_LAB,
            RNNT_IL,
            RNNT_LL,
        ),
        "rnnt_blank_last": (
            _rnnt(blank=4, reduction="none"),
            RNNT_X,
            np.array([[1, 2, 3], [0, 1, 0]], "int32"),
            RNNT_IL,
            RNNT_LL,
        ),
        "rnnt_log_softmax_input": (
            lambda x, lab, il, ll: F.rnnt_loss(F.log_softmax(x, -1), lab, il, ll),
            RNNT_X,
            RNNT_LAB,
            RNNT_IL,
            RNNT_LL,
        ),
        "rnnt_float64": (F.rnnt_loss, RNNT_X.astype("float64"), RNNT_LAB, RNNT_IL, RNNT_LL),
    },
    "",
)


def case_rnnt_errors():
    x, lab, il, ll = T(RNNT_X), T(RNNT_LAB), T(RNNT_IL), T(RNNT_LL)
    return [
        expect_error(lambda: F.rnnt_loss(x, T(RNNT_LAB.astype("int64")), il, ll)),
        expect_error(lambda: F.rnnt_loss(x, lab, il, ll, reduction="x")),
    ]


# -- hierarchical sigmoid ---------------------------------------------------------------------
HS_X = randn(4, 3, seed=3)
HS_W = randn(5, 3, seed=4)  # default tree over 6 classes: 5 nodes
HS_B = randn(5, 1, seed=5)
HS_LAB = np.array([0, 5, 2, 3])
HS_TABLE = np.array([[0, 1, -1], [0, 2, 4], [1, 3, -1], [0, -1, -1]])
HS_CODE = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 0]])

_register(
    {
        "hsigmoid": (lambda x, y, w, b: F.hsigmoid_loss(x, y, 6, w, b), HS_X, HS_LAB, HS_W, HS_B),
        "hsigmoid_no_bias": (lambda x, y, w: F.hsigmoid_loss(x, y, 6, w), HS_X, HS_LAB, HS_W),
        "hsigmoid_label_n1": (
            lambda x, y, w, b: F.hsigmoid_loss(x, y, 6, w, b),
            HS_X,
            HS_LAB.reshape(4, 1),
            HS_W,
            HS_B,
        ),
        # labels down to 1 - num_classes walk a shorter path (below it Paddle crashes)
        "hsigmoid_negative_labels": (
            lambda x, y, w, b: F.hsigmoid_loss(x, y, 6, w, b),
            HS_X,
            np.array([-5, -1, -3, 0]),
            HS_W,
            HS_B,
        ),
        "hsigmoid_8_classes": (
            lambda x, y, w, b: F.hsigmoid_loss(x, y, 8, w, b),
            HS_X,
            np.array([0, 7, 3, 4]),
            randn(7, 3, seed=6),
            randn(7, 1, seed=7),
        ),
        "hsigmoid_custom": (
            lambda x, y, w, b, t, c: F.hsigmoid_loss(x, y, 6, w, b, t, c),
            HS_X,
            HS_LAB,
            HS_W,
            HS_B,
            HS_TABLE,
            HS_CODE,
        ),
        "hsigmoid_float64": (
            lambda x, y, w, b: F.hsigmoid_loss(x, y, 6, w, b),
            HS_X.astype("float64"),
            HS_LAB,
            HS_W.astype("float64"),
            HS_B.astype("float64"),
        ),
    },
    "",
)


def case_hsigmoid_errors():
    return [expect_error(lambda: F.hsigmoid_loss(T(HS_X), T(HS_LAB), 1, T(HS_W), T(HS_B)))]


# -- multi-label margin, n-pair ---------------------------------------------------------------
ML_X = randn(3, 4, seed=8)
ML_LAB = np.array([[3, 0, -1, 1], [0, 1, 2, 3], [-1, 1, 2, 0]])
ML_LAB2 = np.array([[2, -1, 0, 0], [1, 1, -1, 3], [0, 3, 2, -1]])


def _mlm(**kw):
    return lambda x, y: F.multi_label_margin_loss(x, y, **kw)


_register(
    {
        "mlm": (F.multi_label_margin_loss, ML_X, ML_LAB),
        "mlm_none": (_mlm(reduction="none"), ML_X, ML_LAB2),
        "mlm_sum": (_mlm(reduction="sum"), ML_X, ML_LAB2),
        "mlm_int32": (F.multi_label_margin_loss, ML_X, ML_LAB2.astype("int32")),
        "mlm_float64": (F.multi_label_margin_loss, ML_X.astype("float64"), ML_LAB),
        "npair": (
            F.npair_loss,
            randn(4, 3, seed=9),
            randn(4, 3, seed=10),
            np.array([1, 2, 1, 3], "float32"),
        ),
        "npair_reg": (
            lambda a, p, y: F.npair_loss(a, p, y, l2_reg=0.5),
            randn(5, 2, seed=11),
            randn(5, 2, seed=12),
            np.array([0, 0, 1, 2, 2], "int64"),
        ),
    },
    "",
)


def case_mlm_errors():
    x, y = T(ML_X), T(ML_LAB)
    return [
        expect_error(lambda: F.multi_label_margin_loss(x, y, reduction="x")),
        expect_error(lambda: F.multi_label_margin_loss(x[0], y[0])),
        expect_error(lambda: F.multi_label_margin_loss(x, T(ML_LAB.astype("float32")))),
    ]


# -- adaptive log-softmax ---------------------------------------------------------------------
AD_X = randn(5, 8, seed=13)
AD_Y = np.array([0, 4, 9, 2, 7])
AD_W = [randn(8, 5, seed=14), randn(8, 4, seed=15), randn(4, 3, seed=16)]
AD_W += [randn(8, 2, seed=17), randn(2, 4, seed=18), randn(5, seed=19)]


def _adaptive(y):
    def fn(x, hw, a1, a2, b1, b2, hb):
        return F.adaptive_log_softmax_with_loss(x, T(y), hw, [[a1, a2], [b1, b2]], [3, 6, 10], hb)

    return fn


_register(
    {
        "adaptive": (_adaptive(AD_Y), AD_X, *AD_W),
        "adaptive_1d": (_adaptive(AD_Y[1]), AD_X[1], *AD_W),
    },
    "",
)


def case_adaptive_no_bias():
    x = T(AD_X, grad=True)
    hw = T(AD_W[0], grad=True)
    tails = [[T(AD_W[1]), T(AD_W[2])], [T(AD_W[3]), T(AD_W[4])]]
    out, loss = F.adaptive_log_softmax_with_loss(x, T(AD_Y), hw, tails, [3, 6, 10])
    loss.backward()
    return [out, loss, x.grad, hw.grad]


def case_adaptive_errors():
    x, hw = T(AD_X), T(AD_W[0])
    tails = [[T(AD_W[1]), T(AD_W[2])], [T(AD_W[3]), T(AD_W[4])]]
    return [
        expect_error(
            lambda: F.adaptive_log_softmax_with_loss(
                x, T(np.array([0, 4, 10, 2, 7])), hw, tails, [3, 6, 10]
            )
        ),
        expect_error(
            lambda: F.adaptive_log_softmax_with_loss(x, T(AD_Y[:3]), hw, tails, [3, 6, 10])
        ),
    ]


def case_adaptive_cutoffs_without_n_classes():
    # Paddle's docstring example passes cutoffs=[2] with one tail: labels must stay below
    # cutoffs[-1] and only len(cutoffs) - 1 tails are used
    x, hw, hb = T(AD_X, grad=True), T(AD_W[0]), T(AD_W[5])
    tails = [[T(AD_W[1], grad=True), T(AD_W[2])], [T(AD_W[3], grad=True), T(AD_W[4])]]
    y = T(np.array([0, 4, 5, 2, 1]))
    out, loss = F.adaptive_log_softmax_with_loss(x, y, hw, tails, [3, 6], hb)
    loss.backward()
    bad = expect_error(lambda: F.adaptive_log_softmax_with_loss(x, T(AD_Y), hw, tails, [3, 6], hb))
    return [out, loss, x.grad, tails[0][0].grad, tails[1][0].grad, bad]
