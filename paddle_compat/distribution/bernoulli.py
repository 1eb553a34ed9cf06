"""``paddle.distribution.Bernoulli``: 1 with probability ``probs``, else 0.

``probs`` is clipped to ``[eps, 1 - eps]`` of its dtype at construction (as in Paddle), so
``logits`` stay finite."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from ..nn.functional import binary_cross_entropy_with_logits, sigmoid, softplus
from .distribution import _dtype_name
from .exponential_family import ExponentialFamily
from .kl import register_kl

__all__ = ["Bernoulli"]

_EPS = {"float32": float(np.finfo(np.float32).eps), "float64": float(np.finfo(np.float64).eps)}


def _clip_probs(probs: Tensor, dtype: str) -> Tensor:
    """``probs`` clipped to ``[eps, 1 - eps]`` of ``dtype``, as ``dtype``."""
    if dtype not in _EPS:
        raise TypeError(f"Bernoulli: probs must be float32 or float64, but got {dtype}")
    eps = _EPS[dtype]
    # the bounds as Tensors of probs' dtype: paddle.clip rounds Python bounds to float32 here
    lo, hi = (paddle.full([], b, probs.dtype) for b in (eps, 1 - eps))
    return paddle.clip(probs, min=lo, max=hi).astype(dtype)


class Bernoulli(ExponentialFamily):
    """Bernoulli distribution with success probabilities ``probs`` (a float, list, numpy array
    or Tensor)."""

    def __init__(self, probs: float | Tensor, name: str | None = None) -> None:
        self.name = name or "Bernoulli"
        if self._validate_args(probs):
            self.probs = probs
            self.dtype = _dtype_name(probs)
        else:
            [self.probs] = self._to_tensor(probs)
            self.dtype = paddle.get_default_dtype()
        self.probs = _clip_probs(self.probs, self.dtype)
        # no second clip here (the base's helper clips): probs are already inside (0, 1)
        self.logits = paddle.subtract(paddle.log(self.probs), paddle.log1p(-self.probs))
        super().__init__(batch_shape=self.probs.shape, event_shape=())

    @property
    def mean(self) -> Tensor:
        """``probs``."""
        return self.probs

    @property
    def variance(self) -> Tensor:
        """``probs * (1 - probs)``."""
        return paddle.multiply(self.probs, 1 - self.probs)

    def sample(self, shape: Sequence[int] = []) -> Tensor:  # noqa: B006 - Paddle's default
        """0/1 samples (``probs``' dtype) of shape ``shape + batch_shape``, drawn with
        ``paddle.bernoulli``; no gradient."""
        shape = self._extend_shape(shape if isinstance(shape, tuple) else tuple(shape))
        with paddle.no_grad():
            return paddle.bernoulli(self.probs.expand(shape))

    def rsample(self, shape: Sequence[int] = [], temperature: float = 1.0) -> Tensor:  # noqa: B006
        """Relaxed (Gumbel-softmax / binary Concrete) samples: the logit of a ``paddle.rand``
        uniform plus ``logits``, divided by ``temperature``; differentiable in ``probs``."""
        shape = self._extend_shape(shape if isinstance(shape, tuple) else tuple(shape))
        temperature = paddle.full(shape=(), fill_value=temperature, dtype=self.dtype)
        probs = self.probs.expand(shape)
        u = paddle.rand(shape, dtype=self.dtype)
        noise = paddle.subtract(u.log(), (-u).log1p())
        logits = paddle.subtract(probs.log(), (-probs).log1p())
        return paddle.divide(paddle.add(noise, logits), temperature)

    def cdf(self, value: Tensor) -> Tensor:
        """0 below 0, ``1 - probs`` on [0, 1), 1 from 1 on."""
        value = self._check_values_dtype_in_probs(self.probs, value)
        probs, value = paddle.broadcast_tensors([self.probs, value])
        zeros, ones = paddle.zeros_like(probs), paddle.ones_like(probs)
        return paddle.where(
            value < 0, zeros, paddle.where(value < 1, paddle.subtract(ones, probs), ones)
        )

    def log_prob(self, value: Tensor) -> Tensor:
        """``value * log(p) + (1 - value) * log(1 - p)`` (a negated BCE with logits)."""
        value = self._check_values_dtype_in_probs(self.probs, value)
        logits, value = paddle.broadcast_tensors([self.logits, value])
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def prob(self, value: Tensor) -> Tensor:
        """``exp(log_prob(value))``."""
        return self.log_prob(value).exp()

    def entropy(self) -> Tensor:
        """``-p log p - (1 - p) log(1 - p)``."""
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def kl_divergence(self, other: Bernoulli) -> Tensor:
        """KL(self || other), from the two distributions' logits."""
        a_logits, b_logits = self.logits, other.logits
        log_pa, log_pb = -softplus(-a_logits), -softplus(-b_logits)
        pa, one_minus_pa = sigmoid(a_logits), sigmoid(-a_logits)
        log_one_minus_pa, log_one_minus_pb = -softplus(a_logits), -softplus(b_logits)
        return paddle.add(
            paddle.subtract(paddle.multiply(log_pa, pa), paddle.multiply(log_pb, pa)),
            paddle.subtract(
                paddle.multiply(log_one_minus_pa, one_minus_pa),
                paddle.multiply(log_one_minus_pb, one_minus_pa),
            ),
        )


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p: Bernoulli, q: Bernoulli) -> Tensor:
    return p.kl_divergence(q)
