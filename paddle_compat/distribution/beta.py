"""``paddle.distribution.Beta``: the distribution on [0, 1] with shapes ``alpha`` and
``beta``, the two-category Dirichlet."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import paddle_compat as paddle

from .._core.tensor import Tensor
from .dirichlet import Dirichlet
from .exponential_family import ExponentialFamily
from .kl import register_kl

__all__ = ["Beta"]


class Beta(ExponentialFamily):
    """Beta distribution; ``alpha`` and ``beta`` (numbers or Tensors) broadcast to the batch
    shape. Numbers become 0-d Tensors of the default float dtype."""

    alpha: Tensor
    beta: Tensor

    def __init__(self, alpha: float | Tensor, beta: float | Tensor) -> None:
        if isinstance(alpha, numbers.Real):
            alpha = paddle.full(shape=[], fill_value=alpha)
        if isinstance(beta, numbers.Real):
            beta = paddle.full(shape=[], fill_value=beta)
        if not (isinstance(alpha, Tensor) and isinstance(beta, Tensor)):
            raise ValueError(
                "(InvalidArgument) broadcast_tensors(): argument 'input' (position 0) must be "
                "list of Tensors"
            )
        self.alpha, self.beta = paddle.broadcast_tensors([alpha, beta])
        self._dirichlet = Dirichlet(paddle.stack([self.alpha, self.beta], -1))
        super().__init__(self._dirichlet._batch_shape)

    @property
    def mean(self) -> Tensor:
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self) -> Tensor:
        total = self.alpha + self.beta
        return self.alpha * self.beta / (total.pow(2) * (total + 1))

    def prob(self, value: Tensor) -> Tensor:
        return paddle.exp(self.log_prob(value))

    def log_prob(self, value: Tensor) -> Tensor:
        return self._dirichlet.log_prob(paddle.stack([value, 1.0 - value], -1))

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape``: the first component of the Dirichlet's
        samples. As in Paddle, a last batch axis of size 1 is squeezed away."""
        shape = shape if isinstance(shape, tuple) else tuple(shape)
        return paddle.squeeze(self._dirichlet.sample(shape)[..., 0], axis=-1)

    def entropy(self) -> Tensor:
        return self._dirichlet.entropy()

    def kl_divergence(self, other) -> Tensor:
        """Not a method of Paddle's Beta (it raises NotImplementedError): use
        ``paddle.distribution.kl_divergence(p, q)``."""
        raise NotImplementedError

    @property
    def _natural_parameters(self) -> tuple[Tensor, Tensor]:
        return (self.alpha, self.beta)

    def _log_normalizer(self, x: Tensor, y: Tensor) -> Tensor:
        return paddle.lgamma(x) + paddle.lgamma(y) - paddle.lgamma(x + y)


@register_kl(Beta, Beta)
def _kl_beta_beta(p: Beta, q: Beta) -> Tensor:
    pa, pb, qa, qb = p.alpha, p.beta, q.alpha, q.beta
    p_sum, q_sum = pa + pb, qa + qb
    return (
        (qa.lgamma() + qb.lgamma() + p_sum.lgamma())
        - (pa.lgamma() + pb.lgamma() + q_sum.lgamma())
        + (pa - qa) * pa.digamma()
        + (pb - qb) * pb.digamma()
        + (q_sum - p_sum) * p_sum.digamma()
    )
