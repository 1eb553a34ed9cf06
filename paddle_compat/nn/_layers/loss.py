"""Loss layers: hold the options, forward calls paddle.nn.functional."""

from __future__ import annotations

from .. import functional as F
from .._layer import Layer
from ..functional._loss import check_reduction

__all__ = [
    "CrossEntropyLoss",
    "MSELoss",
    "L1Loss",
    "NLLLoss",
    "BCEWithLogitsLoss",
    "BCELoss",
    "SmoothL1Loss",
    "KLDivLoss",
    "MarginRankingLoss",
    "CosineEmbeddingLoss",
    "HingeEmbeddingLoss",
    "SoftMarginLoss",
    "MultiLabelSoftMarginLoss",
    "TripletMarginLoss",
    "PoissonNLLLoss",
    "GaussianNLLLoss",
    "HuberLoss",
    "MultiMarginLoss",
    "TripletMarginWithDistanceLoss",
]


class CrossEntropyLoss(Layer):
    """Softmax cross entropy (see ``paddle.nn.functional.cross_entropy``)."""

    def __init__(
        self,
        weight=None,
        ignore_index: int = -100,
        reduction: str = "mean",
        soft_label: bool = False,
        axis: int = -1,
        use_softmax: bool = True,
        label_smoothing: float = 0.0,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.weight, self.ignore_index, self.reduction = weight, ignore_index, reduction
        self.soft_label, self.axis, self.use_softmax = soft_label, axis, use_softmax
        self.label_smoothing, self.name = label_smoothing, name

    def forward(self, input, label):  # noqa: A002
        return F.cross_entropy(
            input,
            label,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            soft_label=self.soft_label,
            axis=self.axis,
            use_softmax=self.use_softmax,
            label_smoothing=self.label_smoothing,
        )


class _Reduction(Layer):
    _fn = None
    _label = ""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        check_reduction(reduction, self._label or type(self).__name__)
        self.reduction, self.name = reduction, name

    def forward(self, input, label):  # noqa: A002
        return type(self)._fn(input, label, reduction=self.reduction)


class MSELoss(_Reduction):
    """Mean squared error."""

    _fn, _label = staticmethod(F.mse_loss), "MSELoss"

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)


class L1Loss(_Reduction):
    """Mean absolute error."""

    _fn = staticmethod(F.l1_loss)


class SoftMarginLoss(_Reduction):
    """log(1 + exp(-label * input))."""

    _fn = staticmethod(F.soft_margin_loss)


class NLLLoss(Layer):
    """Negative log likelihood of log-probabilities."""

    def __init__(
        self,
        weight=None,
        ignore_index: int = -100,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "nll_loss")
        self._weight, self._ignore_index, self._reduction = weight, ignore_index, reduction
        self._name = name

    def forward(self, input, label):  # noqa: A002
        return F.nll_loss(
            input,
            label,
            weight=self._weight,
            ignore_index=self._ignore_index,
            reduction=self._reduction,
        )


class BCEWithLogitsLoss(Layer):
    """Sigmoid + binary cross entropy from logits."""

    def __init__(
        self, weight=None, reduction: str = "mean", pos_weight=None, name: str | None = None
    ) -> None:
        super().__init__()
        check_reduction(reduction, "BCEWithLogitsLoss")
        self.weight, self.reduction, self.pos_weight, self.name = (
            weight,
            reduction,
            pos_weight,
            name,
        )

    def forward(self, logit, label):
        return F.binary_cross_entropy_with_logits(
            logit, label, self.weight, self.reduction, self.pos_weight
        )


class BCELoss(Layer):
    """Binary cross entropy of probabilities."""

    def __init__(self, weight=None, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        check_reduction(reduction, "BCELoss")
        self.weight, self.reduction, self.name = weight, reduction, name

    def forward(self, input, label):  # noqa: A002
        return F.binary_cross_entropy(input, label, self.weight, self.reduction)


class SmoothL1Loss(Layer):
    """Huber / smooth L1 loss with threshold ``delta``."""

    def __init__(
        self,
        reduction: str = "mean",
        delta: float = 1.0,
        is_huber: bool = True,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.reduction, self.delta, self.is_huber, self.name = reduction, delta, is_huber, name

    def forward(self, input, label):  # noqa: A002
        return F.smooth_l1_loss(input, label, self.reduction, self.delta, self.is_huber)


HuberLoss = SmoothL1Loss


class KLDivLoss(Layer):
    """Kullback-Leibler divergence of log-probabilities ``input`` from ``label``."""

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input, label):  # noqa: A002
        return F.kl_div(input, label, self.reduction, self.log_target)


class MarginRankingLoss(Layer):
    """max(0, -label * (input - other) + margin)."""

    def __init__(
        self, margin: float = 0.0, reduction: str = "mean", name: str | None = None
    ) -> None:
        super().__init__()
        check_reduction(reduction, "MarginRankingLoss")
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input, other, label):  # noqa: A002
        return F.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class _MarginLoss(Layer):
    _fn = None

    def __init__(self, margin: float = 0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        check_reduction(reduction, type(self).__name__)
        self.margin, self.reduction, self.name = margin, reduction, name


class CosineEmbeddingLoss(_MarginLoss):
    """1 - cos for similar pairs, max(0, cos - margin) for dissimilar ones."""

    def forward(self, input1, input2, label):
        return F.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class HingeEmbeddingLoss(Layer):
    """input for label 1, max(0, margin - input) for label -1."""

    def __init__(
        self, margin: float = 1.0, reduction: str = "mean", name: str | None = None
    ) -> None:
        super().__init__()
        self.margin, self.reduction, self.name = margin, reduction, name

    def forward(self, input, label):  # noqa: A002
        return F.hinge_embedding_loss(input, label, self.margin, self.reduction)


class MultiLabelSoftMarginLoss(Layer):
    """Per-class logistic loss averaged over classes."""

    def __init__(self, weight=None, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        check_reduction(reduction, "MultiLabelSoftMarginLoss")
        self.weight, self.reduction, self.name = weight, reduction, name

    def forward(self, input, label):  # noqa: A002
        return F.multi_label_soft_margin_loss(input, label, self.weight, self.reduction)


class TripletMarginLoss(Layer):
    """max(d(a, p) - d(a, n) + margin, 0)."""

    def __init__(
        self,
        margin: float = 1.0,
        p: float = 2.0,
        epsilon: float = 1e-6,
        swap: bool = False,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "TripletMarginLoss")
        self.margin, self.p, self.epsilon, self.swap = margin, p, epsilon, swap
        self.reduction, self.name = reduction, name

    def forward(self, input, positive, negative):  # noqa: A002
        return F.triplet_margin_loss(
            input, positive, negative, self.margin, self.p, self.epsilon, self.swap, self.reduction
        )


class PoissonNLLLoss(Layer):
    """Poisson negative log likelihood."""

    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        epsilon: float = 1e-8,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "PoissonNLLLoss")
        self.log_input, self.full, self.epsilon = log_input, full, epsilon
        self.reduction, self.name = reduction, name

    def forward(self, input, label):  # noqa: A002
        return F.poisson_nll_loss(
            input, label, self.log_input, self.full, self.epsilon, self.reduction
        )


class GaussianNLLLoss(Layer):
    """Gaussian negative log likelihood with predicted variance."""

    def __init__(
        self,
        full: bool = False,
        epsilon: float = 1e-6,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "GaussianNLLLoss")
        self.full, self.epsilon, self.reduction, self.name = full, epsilon, reduction, name

    def forward(self, input, label, variance):  # noqa: A002
        return F.gaussian_nll_loss(input, label, variance, self.full, self.epsilon, self.reduction)


class MultiMarginLoss(Layer):
    """Multi-class hinge loss."""

    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight=None,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "MultiMarginLoss")
        self.p, self.margin, self.weight, self.reduction, self.name = (
            p,
            margin,
            weight,
            reduction,
            name,
        )

    def forward(self, input, label):  # noqa: A002
        return F.multi_margin_loss(input, label, self.p, self.margin, self.weight, self.reduction)


class TripletMarginWithDistanceLoss(Layer):
    """Triplet margin loss with a custom distance function."""

    def __init__(
        self,
        distance_function=None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "TripletMarginWithDistanceLoss")
        self.distance_function, self.margin, self.swap = distance_function, margin, swap
        self.reduction, self.name = reduction, name

    def forward(self, input, positive, negative):  # noqa: A002
        return F.triplet_margin_with_distance_loss(
            input,
            positive,
            negative,
            self.distance_function,
            self.margin,
            self.swap,
            self.reduction,
        )
