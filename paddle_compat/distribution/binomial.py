"""``paddle.distribution.Binomial``: the number of successes in ``total_count`` independent
trials of success probability ``probs``."""

from __future__ import annotations

from collections.abc import Sequence

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .kl import register_kl

__all__ = ["Binomial"]


class Binomial(Distribution):
    """Binomial distribution. ``total_count`` (int or Tensor) is cast to ``probs``' dtype; a
    float ``probs`` becomes a 0-d Tensor of the default dtype. ``dtype`` is the default dtype's
    name, or ``probs.dtype`` when probs is a Tensor (as in Paddle)."""

    def __init__(self, total_count: int | Tensor, probs: float | Tensor) -> None:
        self.dtype = paddle.get_default_dtype()
        self.total_count, self.probs = self._to_tensor(total_count, probs)
        super().__init__(self.total_count.shape)

    def _to_tensor(self, total_count: int | Tensor, probs: float | Tensor) -> list[Tensor]:
        """``total_count`` and ``probs`` as Tensors of one dtype, broadcast together."""
        if isinstance(probs, float):
            probs = paddle.to_tensor(probs, dtype=self.dtype)
        else:
            self.dtype = probs.dtype
        if isinstance(total_count, int):
            total_count = paddle.to_tensor(total_count, dtype=self.dtype)
        elif isinstance(total_count, Tensor):
            total_count = paddle.cast(total_count, dtype=self.dtype)
        else:  # Paddle's cast refuses it
            raise ValueError(
                "(InvalidArgument) cast(): argument 'x' (position 0) must be Tensor, but got "
                f"{type(total_count).__name__}"
            )
        return paddle.broadcast_tensors([total_count, probs])

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.probs

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape`` in ``probs``' dtype (Paddle's CPU
        ``binomial`` numbers after ``paddle.seed``)."""
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        with paddle.set_grad_enabled(False):
            out_shape = tuple(shape) + tuple(self.batch_shape)
            count = paddle.broadcast_to(self.total_count, shape=out_shape)
            prob = paddle.broadcast_to(self.probs, shape=out_shape)
            return paddle.cast(paddle.binomial(paddle.cast(count, dtype="int32"), prob), self.dtype)

    def entropy(self) -> Tensor:
        """``-sum p(x) log p(x)`` over the support ``0..max(total_count)``."""
        values = self._enumerate_support()
        log_prob = self.log_prob(values)
        return -(paddle.exp(log_prob) * log_prob).sum(0)

    def _enumerate_support(self) -> Tensor:
        """``[0, 1, ..., max(total_count)]`` on a leading axis, against the batch axes."""
        values = paddle.arange(1 + paddle.max(self.total_count), dtype=self.dtype)
        return values.reshape((-1,) + (1,) * len(self.batch_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        """The log pmf; ``probs`` is clipped to [eps, 1 - eps] and ``-inf`` becomes ``-eps``
        (Paddle's convention)."""
        value = paddle.cast(value, dtype=self.dtype)
        n = self.total_count
        log_comb = paddle.lgamma(n + 1.0) - paddle.lgamma(n - value + 1.0)
        log_comb = log_comb - paddle.lgamma(value + 1.0)
        eps = paddle.finfo(self.probs.dtype).eps
        probs = paddle.clip(self.probs, min=eps, max=1 - eps)
        out = log_comb + value * paddle.log(probs) + (n - value) * paddle.log(1 - probs)
        return paddle.nan_to_num(out, neginf=-eps)

    def prob(self, value: Tensor) -> Tensor:
        return paddle.exp(self.log_prob(value))

    def kl_divergence(self, other: Binomial) -> Tensor:
        """KL(self || other), summed over self's support."""
        support = self._enumerate_support()
        log_p = self.log_prob(support)
        log_q = other.log_prob(support)
        return paddle.multiply(paddle.exp(log_p), paddle.subtract(log_p, log_q)).sum(0)


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p: Binomial, q: Binomial) -> Tensor:
    return p.kl_divergence(q)
