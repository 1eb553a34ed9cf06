"""paddle.metric: streaming evaluation metrics (``Metric`` and its ``Accuracy``, ``Precision``,
``Recall``, ``Auc``) and the ``accuracy`` op.

As in Paddle, a metric's ``compute`` runs on Tensors (inside the model's step) and
``update``/``accumulate`` keep running counts on the host in numpy: ``update`` takes numpy
arrays or Tensors and returns the batch's value, ``accumulate`` the value over every batch
since ``reset``.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence

import numpy as np

from .._core.registry import call_op
from .._core.tensor import Tensor

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]


def _host(x, what: str) -> np.ndarray:
    """A numpy array from a numpy array or a Tensor (Paddle accepts nothing else)."""
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, np.ndarray):
        return x
    raise ValueError(f"The '{what}' must be a numpy ndarray or Tensor.")


def _rows(preds, labels):
    """One prediction and one label per sample: Paddle reads ``preds[i]`` and ``labels[i]`` for
    each of the ``labels.shape[0]`` samples (IndexError when preds are fewer)."""
    preds, labels = _host(preds, "preds"), _host(labels, "labels")
    n = labels.shape[0]
    if preds.shape[0] < n:
        raise IndexError(f"index {preds.shape[0]} is out of bounds for axis 0 with size {n}")
    return preds[:n].reshape(n, -1)[:, 0], labels.reshape(n, -1)[:, 0]


class Metric(abc.ABC):
    """Base class: subclasses define ``reset``, ``update``, ``accumulate`` and ``name``;
    ``compute`` (Tensor pre-processing inside the step) returns its arguments unchanged."""

    def __init__(self) -> None:  # noqa: B027 - Paddle's base __init__ takes no arguments
        pass

    @abc.abstractmethod
    def reset(self) -> None:
        """Clear the running state."""

    @abc.abstractmethod
    def update(self, *args):
        """Add a batch; return its value."""

    @abc.abstractmethod
    def accumulate(self):
        """The value over every batch since ``reset``."""

    @abc.abstractmethod
    def name(self):
        """The metric's name(s)."""

    def compute(self, *args):
        return args


class Accuracy(Metric):
    """Top-k classification accuracy: ``compute`` gives the [N, max k] matrix of hits (label
    among the k highest scores), ``update`` counts them per k."""

    def __init__(self, topk: Sequence[int] = (1,), name: str | None = None, *args, **kwargs):
        super().__init__()
        self.topk = topk
        self.maxk = max(topk)
        self._init_name(name)
        self.reset()

    def compute(self, pred, label, *args):
        k = min(self.maxk, pred.shape[-1])
        idx = _top_indices(pred, k)
        if label.ndim == 1:
            label = label.unsqueeze(-1)
        elif label.shape[-1] != 1:  # one-hot
            label = call_op("argmax", label, axis=-1, keepdim=True)
        return (idx == label.astype(idx.dtype)).astype("float32")

    def update(self, correct, *args):
        correct = _host(correct, "correct")
        n = np.prod(correct.shape[:-1])
        accs = []
        for i, k in enumerate(self.topk):
            hits = correct[..., :k].sum()
            accs.append(float(hits) / n)
            self.total[i] += hits
            self.count[i] += n
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self) -> None:
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        res = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def _init_name(self, name) -> None:
        name = name or "acc"
        if self.maxk != 1:
            self._name = [f"{name}_top{k}" for k in self.topk]
        else:
            self._name = [name]

    def name(self):
        return self._name


class _HitRate(Metric):
    """tp / (tp + misses), counted per batch by ``_count(preds, labels) -> (tp, misses)``; the
    misses are kept under Paddle's attribute name (``fp`` for Precision, ``fn`` for Recall)."""

    _misses = ""

    def __init__(self, name: str):
        super().__init__()
        self._name = name
        self.reset()

    def update(self, preds, labels):
        tp, misses = self._count(*_rows(preds, labels))
        self.tp += tp
        setattr(self, self._misses, getattr(self, self._misses) + misses)

    def reset(self) -> None:
        self.tp = 0
        setattr(self, self._misses, 0)

    def accumulate(self):
        total = self.tp + getattr(self, self._misses)
        return float(self.tp) / total if total != 0 else 0.0

    def name(self):
        return self._name


class Precision(_HitRate):
    """Binary precision tp / (tp + fp): a prediction is positive when it rounds half up to 1,
    a positive is true when its label is 1."""

    _misses = "fp"

    def __init__(self, name: str = "precision", *args, **kwargs):
        super().__init__(name)

    @staticmethod
    def _count(preds, labels):
        positive, hit = np.floor(preds + 0.5) == 1, labels == 1
        return int(np.sum(positive & hit)), int(np.sum(positive & ~hit))


class Recall(_HitRate):
    """Binary recall tp / (tp + fn) over the samples labelled 1: a prediction is positive when
    it rounds (half to even, ``np.rint``) to 1."""

    _misses = "fn"

    def __init__(self, name: str = "recall", *args, **kwargs):
        super().__init__(name)

    @staticmethod
    def _count(preds, labels):
        actual, positive = labels == 1, np.rint(preds) == 1
        return int(np.sum(actual & positive)), int(np.sum(actual & ~positive))


class Auc(Metric):
    """Area under the ROC curve from ``num_thresholds + 1`` histogram bins of the positive-class
    score (column 1 of [N, 2] predictions); a sample is positive when its label is nonzero."""

    def __init__(
        self, curve: str = "ROC", num_thresholds: int = 4095, name: str = "auc", *args, **kwargs
    ):
        super().__init__()
        self._curve = curve
        self._num_thresholds = num_thresholds
        n = num_thresholds + 1
        self._stat_pos = np.zeros(n)
        self._stat_neg = np.zeros(n)
        self._name = name

    def update(self, preds, labels):
        labels = _host(labels, "labels").reshape(-1)
        preds = _host(preds, "preds")
        scores = preds[:, 1]
        bins = (scores * self._num_thresholds).astype(np.int64)
        positive = labels != 0
        np.add.at(self._stat_pos, bins[positive], 1.0)
        np.add.at(self._stat_neg, bins[~positive], 1.0)

    @staticmethod
    def trapezoid_area(x1, x2, y1, y2):
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self):
        tot_pos = tot_neg = 0.0
        auc = 0.0
        for idx in range(self._num_thresholds, -1, -1):
            prev_pos, prev_neg = tot_pos, tot_neg
            tot_pos += self._stat_pos[idx]
            tot_neg += self._stat_neg[idx]
            auc += self.trapezoid_area(tot_neg, prev_neg, tot_pos, prev_pos)
        return auc / tot_pos / tot_neg if tot_pos > 0.0 and tot_neg > 0.0 else 0.0

    def reset(self) -> None:
        n = self._num_thresholds + 1
        self._stat_pos = np.zeros(n)
        self._stat_neg = np.zeros(n)

    def name(self):
        return self._name


def accuracy(input, label, k: int = 1, correct=None, total=None, name=None):
    """Top-k accuracy of ``input`` [N, C] scores against ``label`` [N, 1] as a float32 scalar
    Tensor; ``correct`` and ``total`` (Tensors), when given, receive the int32 counts."""
    if input.ndim != 2:
        raise ValueError(
            f"(InvalidArgument) Rank(Input) of AccuracyOp must be 2, with shape [sample_number, "
            f"class_dim], but received input's shape = {list(input.shape)}"
        )
    if label.ndim != 2:
        raise ValueError(
            "(InvalidArgument) ShapeError: label's dimensions of AccuracyOp must be 2. But "
            f"received label's dimensions = {label.ndim}, label's shape = {list(label.shape)}"
        )
    if label.shape[1] != 1:
        raise ValueError(
            "(InvalidArgument) ShapeError: label's second dimension of AccuracyOp must be 1. "
            f"But received label's second dimension is = {label.shape[1]}"
        )
    if label.shape[0] != input.shape[0]:
        raise ValueError(
            "(InvalidArgument) ShapeError: the output's num_rows of AccuracyOp must be the same "
            f"as label's num_rows. But received output's num_rows = {input.shape[0]}, label's "
            f"num_rows = {label.shape[0]}"
        )
    if label.dtype.name not in ("int32", "int64"):
        raise ValueError(
            f"(InvalidArgument) The data type of 'label' in accuracy must be int32 or int64, "
            f"but received {label.dtype.name}."
        )
    k, width = int(k), input.shape[-1]
    if k < 1:
        raise ValueError(
            f"(InvalidArgument) the attribute of k in the topk must >= 1 or be a Tensor, but "
            f"received {k} ."
        )
    if k > width:
        raise ValueError(
            f"(InvalidArgument) The rank ({k}) of the input 'k' for topk op must be less than "
            f"or equal to {width}."
        )
    idx = _top_indices(input, k)
    hits = (idx == label.astype(idx.dtype)).astype("int32").sum(axis=-1).clip(max=1)
    n_correct = hits.sum().astype("int32")
    n_total = call_op("full", [], input.shape[0], "int32")
    for out, value in ((correct, n_correct), (total, n_total)):
        if out is not None:  # Paddle writes the counts into them (shape [] from then on)
            out._set_value(value._value)
    if input.shape[0] == 0:  # Paddle: an empty batch is accuracy 0, not 0 / 0
        return call_op("full", [], 0.0, "float32")
    return n_correct.astype("float32") / n_total.astype("float32")


def _top_indices(scores, k: int):
    """Indices of the k highest scores along the last axis (equal scores: see the porting
    guide on topk/argsort ties)."""
    return call_op("argsort", scores, axis=-1, descending=True, stable=True)[..., :k]
