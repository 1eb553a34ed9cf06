"""Loss layers over sequences and structured outputs (CTC, RNN-T, hierarchical sigmoid,
adaptive log-softmax, multi-label margin): hold the options and parameters, forward calls
paddle.nn.functional."""

from __future__ import annotations

from collections.abc import Sequence

from .. import functional as F
from .._layer import Layer
from ..functional._loss import check_reduction
from ..functional._loss_extra import _adaptive_log_prob

__all__ = [
    "CTCLoss",
    "RNNTLoss",
    "HSigmoidLoss",
    "MultiLabelMarginLoss",
    "AdaptiveLogSoftmaxWithLoss",
]


class CTCLoss(Layer):
    """Connectionist temporal classification loss (see ``paddle.nn.functional.ctc_loss``)."""

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return F.ctc_loss(
            log_probs,
            labels,
            input_lengths,
            label_lengths,
            self.blank,
            self.reduction,
            norm_by_times=norm_by_times,
            zero_infinity=self.zero_infinity,
        )


class RNNTLoss(Layer):
    """RNN transducer loss (see ``paddle.nn.functional.rnnt_loss``)."""

    def __init__(
        self,
        blank: int = 0,
        fastemit_lambda: float = 0.001,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.blank, self.reduction = blank, reduction
        self.fastemit_lambda, self.name = fastemit_lambda, name

    def forward(self, input, label, input_lengths, label_lengths):  # noqa: A002
        return F.rnnt_loss(
            input,
            label,
            input_lengths,
            label_lengths,
            blank=self.blank,
            fastemit_lambda=self.fastemit_lambda,
            reduction=self.reduction,
        )


class MultiLabelMarginLoss(Layer):
    """Multi-class multi-label hinge loss."""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        check_reduction(reduction, "multi_label_margin_loss")
        self.reduction, self.name = reduction, name

    def forward(self, input, label):  # noqa: A002
        return F.multi_label_margin_loss(input, label, reduction=self.reduction)


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid with its node weights [num_classes - 1, feature_size] and biases
    [num_classes - 1, 1] (``num_classes`` rows each when ``is_custom``)."""

    def __init__(
        self,
        feature_size: int,
        num_classes: int,
        weight_attr=None,
        bias_attr=None,
        is_custom: bool = False,
        is_sparse: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise ValueError("num_classes must not be less than 2 with default tree")
        self._feature_size, self._num_classes = feature_size, num_classes
        self._is_custom, self._is_sparse = is_custom, is_sparse
        # Paddle 3.3.1 prints this line whenever an HSigmoidLoss is built (whatever is_sparse)
        print(
            "With sparse mode, if your models has only small parameter prefetch may cause speed down"
        )
        rows = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([rows, feature_size], attr=weight_attr)
        self.bias = self.create_parameter([rows, 1], attr=bias_attr, is_bias=True)

    def forward(self, input, label, path_table=None, path_code=None):  # noqa: A002
        return F.hsigmoid_loss(
            input,
            label,
            self._num_classes,
            self.weight,
            self.bias,
            path_table=path_table,
            path_code=path_code,
            is_sparse=self._is_sparse,
        )


class AdaptiveLogSoftmaxWithLoss(Layer):
    """Adaptive softmax over ``n_classes`` split at ``cutoffs``. As in Paddle 3.3.1 the tail
    projections (``tail_weights``, a list of [W1, W2] pairs) are Parameters kept in a plain
    list: they are not in ``parameters()`` or ``state_dict()``."""

    def __init__(
        self,
        in_features: int,
        n_classes: int,
        cutoffs: Sequence[int],
        weight_attr=None,
        bias_attr=None,
        div_value: float = 4.0,
        head_bias: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        if (
            not cutoffs
            or cutoffs != sorted(cutoffs)
            or min(cutoffs) <= 0
            or max(cutoffs) > n_classes - 1
            or len(set(cutoffs)) != len(cutoffs)
            or any(int(c) != c for c in cutoffs)
        ):
            raise ValueError(
                "cutoffs should be a sequence of unique, positive integers sorted in an "
                "increasing order, where each value is between 1 and n_classes-1"
            )
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value, self.is_head_bias = div_value, head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head_weight = self.create_parameter([in_features, self.head_size], attr=weight_attr)
        self.head_bias = (
            self.create_parameter([self.head_size], attr=bias_attr, is_bias=True)
            if head_bias
            else None
        )
        self.tail_weights = []
        for i in range(self.n_clusters):
            hsz = int(in_features // (div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail_weights.append(
                [
                    self.create_parameter([in_features, hsz], attr=weight_attr),
                    self.create_parameter([hsz, osz], attr=weight_attr),
                ]
            )

    def forward(self, input, label):  # noqa: A002
        return F.adaptive_log_softmax_with_loss(
            input, label, self.head_weight, self.tail_weights, self.cutoffs, self.head_bias
        )

    def log_prob(self, input):  # noqa: A002
        """Log-probabilities of every class, [N, n_classes]."""
        return _adaptive_log_prob(
            input, self.head_weight, self.tail_weights, tuple(self.cutoffs), self.head_bias
        )

    def predict(self, input):  # noqa: A002
        """The most likely class of each row (as the input's float dtype, like Paddle)."""
        return self.log_prob(input).argmax(axis=-1).astype(input.dtype)
