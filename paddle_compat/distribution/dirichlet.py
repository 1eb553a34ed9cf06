"""``paddle.distribution.Dirichlet``: the distribution over the probability simplex with
concentration ``alpha`` (the last axis is the event)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import paddle_compat as paddle

from .._core import host_gamma
from .._core import random as _rng
from .._core.tensor import Tensor
from .exponential_family import ExponentialFamily
from .kl import register_kl

__all__ = ["Dirichlet"]


class Dirichlet(ExponentialFamily):
    """Dirichlet distribution with concentration ``alpha`` (a Tensor of at least one axis:
    ``batch_shape = alpha.shape[:-1]``, ``event_shape = alpha.shape[-1:]``)."""

    concentration: Tensor

    def __init__(self, concentration: Tensor) -> None:
        if concentration.dim() < 1 or math.prod(concentration.shape) == 0:
            raise ValueError("`concentration` parameter must be at least one dimensional")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:])

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def variance(self) -> Tensor:
        total = self.concentration.sum(-1, keepdim=True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape + event_shape``: normalized standard gamma
        draws (Paddle's CPU ``dirichlet`` kernel, so seeded samples equal Paddle's)."""
        shape = shape if isinstance(shape, tuple) else tuple(shape)
        alpha = self.concentration.expand(self._extend_shape(shape))
        with paddle.no_grad():
            return _dirichlet_sample(alpha)

    def prob(self, value: Tensor) -> Tensor:
        return paddle.exp(self.log_prob(value))

    def log_prob(self, value: Tensor) -> Tensor:
        alpha = self.concentration
        return (
            (paddle.log(value) * (alpha - 1.0)).sum(-1)
            + paddle.lgamma(alpha.sum(-1))
            - paddle.lgamma(alpha).sum(-1)
        )

    def entropy(self) -> Tensor:
        alpha = self.concentration
        total = alpha.sum(-1)
        k = alpha.shape[-1]
        return (
            paddle.lgamma(alpha).sum(-1)
            - paddle.lgamma(total)
            - (k - total) * paddle.digamma(total)
            - ((alpha - 1.0) * paddle.digamma(alpha)).sum(-1)
        )

    def kl_divergence(self, other) -> Tensor:
        """Not a method of Paddle's Dirichlet (it raises NotImplementedError): use
        ``paddle.distribution.kl_divergence(p, q)``."""
        raise NotImplementedError

    @property
    def _natural_parameters(self) -> tuple[Tensor]:
        return (self.concentration,)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return x.lgamma().sum(-1) - paddle.lgamma(x.sum(-1))


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p: Dirichlet, q: Dirichlet) -> Tensor:
    a, b = p.concentration, q.concentration
    a0 = a.sum(-1)
    return (
        (a0.lgamma() - b.sum(-1).lgamma())
        - (a.lgamma() - b.lgamma()).sum(-1)
        + ((a - b) * (a.digamma() - a0.digamma().unsqueeze(-1))).sum(-1)
    )


def _dirichlet_sample(alpha: Tensor) -> Tensor:
    """Paddle's ``dirichlet`` kernel: standard gamma draws divided by their sum over the last
    axis (the division done on the host too when eager, so values match Paddle's)."""
    eng = _rng.host_engine()
    if eng is None or alpha.dtype not in (paddle.float32, paddle.float64):
        g = paddle.standard_gamma(alpha)
        return g / g.sum(-1, keepdim=True)
    g = host_gamma.standard_gamma_array(eng, alpha.numpy())
    return paddle.to_tensor(g / g.sum(-1, keepdims=True, dtype=g.dtype))
