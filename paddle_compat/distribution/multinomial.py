"""``paddle.distribution.Multinomial``: the counts of each category in ``total_count``
independent draws with category probabilities ``probs`` (the last axis)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution

__all__ = ["Multinomial"]


def _clip_by_zero(x: Tensor) -> Tensor:
    """max(x, 0), written as Paddle writes it (its gradient at 0 is 1/2)."""
    return (x.clip(min=0) + x - x.clip(max=0)) / 2


class _Categories:
    """What Multinomial uses of Paddle's ``Categorical`` built on ``logits``: index samples
    (``paddle.multinomial`` with replacement on the softmax, as Categorical draws them) and
    the entropy."""

    def __init__(self, logits: Tensor):
        self.logits = logits

    def sample(self, shape: list[int]) -> Tensor:
        num_samples = int(np.prod(shape))
        logits_shape = list(self.logits.shape)
        logits = self.logits
        if len(logits_shape) > 1:
            logits = paddle.reshape(logits, [int(np.prod(logits_shape[:-1])), logits_shape[-1]])
        probs = paddle.nn.functional.softmax(logits, axis=-1)
        index = paddle.multinomial(probs, num_samples, True)
        perm = list(range(index.dim()))
        perm.insert(0, perm.pop(-1))
        return paddle.reshape(index.transpose(perm), shape + logits_shape[:-1])

    def entropy(self) -> Tensor:
        logits = self.logits - paddle.max(self.logits, axis=-1, keepdim=True)
        e = paddle.exp(logits)
        z = paddle.sum(e, axis=-1, keepdim=True)
        return -paddle.sum(e / z * (logits - paddle.log(z)), axis=-1)


class Multinomial(Distribution):
    """Multinomial distribution; ``probs`` is normalized over its last axis (which indexes the
    categories; the others are batch axes)."""

    total_count: int
    probs: Tensor

    def __init__(self, total_count: int, probs: Tensor) -> None:
        if not isinstance(total_count, int) or total_count < 1:
            raise ValueError("input parameter total_count must be int type and grater than zero.")
        if probs.dim() < 1:
            raise ValueError("probs parameter should not be none and over one dimension")
        self.probs = probs / probs.sum(-1, keepdim=True)
        self.total_count = total_count
        self._categorical = _Categories(self._probs_to_logits(probs))
        super().__init__(probs.shape[:-1], probs.shape[-1:])

    def _probs_to_logits(self, probs: Tensor, is_binary: bool = False) -> Tensor:
        # Paddle 3.3.1's conversion takes the log without clipping (a 0 gives -inf)
        if is_binary:
            return paddle.log(probs) - paddle.log1p(-probs)
        return paddle.log(probs)

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def prob(self, value: Tensor) -> Tensor:
        return paddle.exp(self.log_prob(value))

    def log_prob(self, value: Tensor) -> Tensor:
        """``log(n! / prod x_i!) + sum x_i log p_i`` (a zero count of a zero-probability
        category adds 0)."""
        if paddle.is_integer(value):
            value = paddle.cast(value, self.probs.dtype)
        logits, value = paddle.broadcast_tensors([paddle.log(self.probs), value])
        logits = paddle.where(
            (value == 0) & paddle.isinf(logits), paddle.zeros_like(logits), logits
        )
        return (
            paddle.lgamma(value.sum(-1) + 1)
            - paddle.lgamma(value + 1).sum(-1)
            + (value * logits).sum(-1)
        )

    def sample(self, shape: Iterable[int] = ()) -> Tensor:
        """Counts of shape ``shape + batch_shape + event_shape``: ``total_count`` category
        draws (``paddle.multinomial``, so seeded samples equal Paddle's) one-hot summed."""
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        samples = self._categorical.sample([self.total_count, *list(shape)])
        k = self.probs.shape[-1]
        return paddle.nn.functional.one_hot(samples, k).cast(self.probs.dtype).sum(0)

    def entropy(self) -> Tensor:
        """Exact entropy: ``n H(categorical) - log n! + sum_i E[log x_i!]`` with each count's
        binomial pmf over ``1..n``."""
        n = paddle.full(shape=[], fill_value=self.total_count, dtype=self.probs.dtype)
        support = paddle.arange(self.total_count + 1, dtype=self.probs.dtype)
        support = support.reshape((-1,) + (1,) * len(self.probs.shape))[1:]
        binomial_pmf = paddle.exp(self._binomial_logpmf(n, support))
        return (n * self._categorical.entropy() - paddle.lgamma(n + 1)) + (
            (binomial_pmf * paddle.lgamma(support + 1)).sum([0, -1])
        )

    def _binomial_logpmf(self, count: Tensor, value: Tensor) -> Tensor:
        logits = self._probs_to_logits(self.probs, is_binary=True)
        norm = (
            count * _clip_by_zero(logits)
            + count * paddle.log1p(paddle.exp(-paddle.abs(logits)))
            - paddle.lgamma(count + 1)
        )
        return value * logits - paddle.lgamma(value + 1) - paddle.lgamma(count - value + 1) - norm
