"""``paddle.distribution.ContinuousBernoulli``: the density ``C(p) p**x (1 - p)**(1 - x)`` on
[0, 1]. Near ``p = 1/2`` (inside ``lims``) the normalizer, mean and variance use Taylor
expansions, as in Paddle, since the closed forms divide by ``2p - 1``.

As in Paddle 3.3.1, a Python number becomes a 1-element Tensor (batch shape ``(1,)``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .kl import register_kl

__all__ = ["ContinuousBernoulli"]


def _as_tensor(value, what: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise ValueError(f"ContinuousBernoulli: {what} must be a Tensor, but got {type(value)}")
    return value


class ContinuousBernoulli(Distribution):
    """Continuous Bernoulli distribution with parameter ``probs`` (a number or a Tensor);
    ``lims`` is the interval around 1/2 where Taylor expansions are used."""

    def __init__(self, probs: float | Tensor, lims: tuple[float] = (0.499, 0.501)) -> None:
        self.dtype = paddle.get_default_dtype()
        self.probs = self._to_tensor(probs)
        self.lims = paddle.to_tensor(lims, dtype=self.dtype)
        eps = paddle.finfo(_as_tensor(self.probs, "probs").dtype).eps
        # the bounds as Tensors of probs' dtype: paddle.clip rounds Python bounds to float32
        lo, hi = (paddle.full([], b, self.probs.dtype) for b in (eps, 1 - eps))
        self.probs = paddle.clip(self.probs, min=lo, max=hi)
        super().__init__(self.probs.shape)

    def _to_tensor(self, probs: float | Tensor) -> Tensor:
        """A Python number as a 1-element Tensor of the default dtype; otherwise ``probs``
        itself, whose dtype becomes the distribution's."""
        if isinstance(probs, float | int):
            return paddle.to_tensor([probs], dtype=self.dtype)
        self.dtype = probs.dtype
        if isinstance(probs, np.ndarray):
            _as_tensor(probs, "probs")
        return probs

    def _cut_support_region(self) -> Tensor:
        """True where ``probs`` lies outside ``(lims[0], lims[1]]`` (closed forms are used)."""
        return paddle.logical_or(
            paddle.less_equal(self.probs, self.lims[0]),
            paddle.greater_than(self.probs, self.lims[1]),
        )

    def _cut_probs(self) -> Tensor:
        """``probs`` outside the Taylor region, ``lims[0]`` inside it."""
        return paddle.where(
            self._cut_support_region(), self.probs, self.lims[0] * paddle.ones_like(self.probs)
        )

    def _tanh_inverse(self, value: Tensor) -> Tensor:
        """``atanh(value)`` as ``(log1p(v) - log1p(-v)) / 2``."""
        return 0.5 * (paddle.log1p(value) - paddle.log1p(-value))

    def _log_constant(self) -> Tensor:
        """The log of the normalizing constant ``C(p)``."""
        cut = self._cut_probs()
        half = paddle.to_tensor(0.5, dtype=self.dtype)
        below = paddle.less_equal(cut, half)
        cut_below = paddle.where(below, cut, paddle.zeros_like(cut))
        cut_above = paddle.where(paddle.greater_equal(cut, half), cut, paddle.ones_like(cut))
        closed = paddle.log(2.0 * paddle.abs(self._tanh_inverse(1.0 - 2.0 * cut))) - paddle.where(
            below, paddle.log1p(-2.0 * cut_below), paddle.log(2.0 * cut_above - 1.0)
        )
        x = paddle.square(self.probs - 0.5)
        taylor = (
            paddle.log(paddle.to_tensor(2.0, dtype=self.dtype)) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        )
        return paddle.where(self._cut_support_region(), closed, taylor)

    @property
    def mean(self) -> Tensor:
        """``p / (2p - 1) + 1 / (2 atanh(1 - 2p))`` (a Taylor series near 1/2)."""
        cut = self._cut_probs()
        closed = paddle.divide(cut, 2.0 * cut - 1.0) + paddle.divide(
            paddle.to_tensor(1.0, dtype=self.dtype), 2.0 * self._tanh_inverse(1.0 - 2.0 * cut)
        )
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * paddle.square(x)) * x
        return paddle.where(self._cut_support_region(), closed, taylor)

    @property
    def variance(self) -> Tensor:
        """``p (p - 1) / (1 - 2p)**2 + 1 / (log1p(-p) - log p)**2`` (a Taylor series near
        1/2)."""
        cut = self._cut_probs()
        closed = paddle.divide(cut * (cut - 1.0), paddle.square(1.0 - 2.0 * cut)) + paddle.divide(
            paddle.to_tensor(1.0, dtype=self.dtype),
            paddle.square(paddle.log1p(-cut) - paddle.log(cut)),
        )
        x = paddle.square(self.probs - 0.5)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return paddle.where(self._cut_support_region(), closed, taylor)

    def sample(self, shape: Sequence[int] = []) -> Tensor:  # noqa: B006 - Paddle's default
        """Samples of shape ``shape + batch_shape`` (``rsample`` without gradient)."""
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape: Sequence[int] = []) -> Tensor:  # noqa: B006 - Paddle's default
        """``icdf(u)`` of ``paddle.uniform`` samples ``u`` on [0, 1); differentiable in
        ``probs``."""
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        output_shape = tuple(shape) + tuple(self.batch_shape)
        u = paddle.uniform(shape=output_shape, dtype=self.dtype, min=0, max=1)
        return self.icdf(u)

    def log_prob(self, value: Tensor) -> Tensor:
        """``log C(p) + x log p + (1 - x) log(1 - p)``."""
        value = paddle.cast(_as_tensor(value, "value"), dtype=self.dtype)
        eps = paddle.finfo(self.probs.dtype).eps
        cross_entropy = paddle.nan_to_num(
            value * paddle.log(self.probs) + (1.0 - value) * paddle.log(1 - self.probs),
            neginf=-eps,
        )
        return self._log_constant() + cross_entropy

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return paddle.exp(self.log_prob(value))

    def entropy(self) -> Tensor:
        """Differential entropy (0 at ``p = 1/2``)."""
        log_p = paddle.log(self.probs)
        log_1_minus_p = paddle.log1p(-self.probs)
        closed = -self._log_constant() + self.mean * (log_1_minus_p - log_p) - log_1_minus_p
        return paddle.where(
            paddle.equal(self.probs, paddle.to_tensor(0.5, dtype=self.dtype)),
            paddle.full_like(self.probs, 0.0),
            closed,
        )

    def cdf(self, value: Tensor) -> Tensor:
        """``(p**x (1 - p)**(1 - x) + p - 1) / (2p - 1)`` on [0, 1] (``x`` near p = 1/2),
        0 below and 1 above."""
        value = paddle.cast(_as_tensor(value, "value"), dtype=self.dtype)
        cut = self._cut_probs()
        cdfs = (paddle.pow(cut, value) * paddle.pow(1.0 - cut, 1.0 - value) + cut - 1.0) / (
            2.0 * cut - 1.0
        )
        unbounded = paddle.where(self._cut_support_region(), cdfs, value)
        return paddle.where(
            paddle.less_equal(value, paddle.to_tensor(0.0, dtype=self.dtype)),
            paddle.zeros_like(value),
            paddle.where(
                paddle.greater_equal(value, paddle.to_tensor(1.0, dtype=self.dtype)),
                paddle.ones_like(value),
                unbounded,
            ),
        )

    def icdf(self, value: Tensor) -> Tensor:
        """The inverse of ``cdf`` on [0, 1]."""
        value = paddle.cast(_as_tensor(value, "value"), dtype=self.dtype)
        cut = self._cut_probs()
        closed = (paddle.log1p(-cut + value * (2.0 * cut - 1.0)) - paddle.log1p(-cut)) / (
            paddle.log(cut) - paddle.log1p(-cut)
        )
        return paddle.where(self._cut_support_region(), closed, value)

    def kl_divergence(self, other: ContinuousBernoulli) -> Tensor:
        """KL(self || other); both must have the same ``batch_shape``."""
        if self.batch_shape != other.batch_shape:
            raise ValueError(
                "KL divergence of two Continuous Bernoulli distributions should share the same "
                "`batch_shape`."
            )
        log_q = paddle.log(other.probs)
        log_1_minus_q = paddle.log1p(-other.probs)
        cross = other._log_constant() + self.mean * (log_q - log_1_minus_q) + log_1_minus_q
        return -self.entropy() - cross


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuousbernoulli_continuousbernoulli(
    p: ContinuousBernoulli, q: ContinuousBernoulli
) -> Tensor:
    return p.kl_divergence(q)
