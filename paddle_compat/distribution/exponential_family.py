"""``paddle.distribution.ExponentialFamily``: distributions with density
``exp(<eta, T(x)> - A(eta) + k(x))``; subclasses give the natural parameters ``eta``, the log
normalizer ``A`` and the carrier measure's mean, and get the entropy from ``A``'s gradient."""

from __future__ import annotations

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Base of exponential-family distributions (Bernoulli, Beta, Dirichlet, Exponential,
    Gamma, ...)."""

    @property
    def _natural_parameters(self) -> tuple[Tensor, ...]:
        raise NotImplementedError

    def _log_normalizer(self, *natural_parameters: Tensor) -> Tensor:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> Tensor | float:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        """``A(eta) - <eta, grad A(eta)> - E[k(x)]``, with ``grad A`` from autograd on
        detached copies of the natural parameters (as in Paddle, no gradient reaches the
        distribution's own parameters)."""
        etas = [p.detach() for p in self._natural_parameters]
        for p in etas:
            p.stop_gradient = False
        log_norm = self._log_normalizer(*etas)
        grads = paddle.grad(log_norm.sum(), etas, create_graph=True)
        out = log_norm - self._mean_carrier_measure
        for eta, g in zip(etas, grads, strict=True):
            out = out - eta * g
        return out
